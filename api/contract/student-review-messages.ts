/** Matching photos at the shoot, the review sheet and photos a family paid for (staff screens and the API's answers to them): user-facing texts in the product's exact words (docs/architecture.md, "One contract, shared"). Apart from student-messages.ts so a parent's first screen, which says a few of those, never downloads these. */
/** Matching photos to children at the shoot: card photos, file names and the unmatched tray. */
export const MATCHING_MSG = {
  badSession: 'The upload session id must be 8 to 64 letters, digits, dashes or underscores',
  badCapture: 'The capture order must list each photo of the batch by name and size with a whole number',
  captureConflict: (name: string) => `${name} has the same place in this upload session as a different photo. Start a new upload for it.`,
  cardNotAssignable: 'A card photo is never shown to families, so it cannot be assigned. Delete it if it is not a card.',
  unknownCode: (name: string) => `${name}: the card's code is not a student of this class; the photos after it wait in the tray`,
  otherClassCode: (name: string, student: string, where: string) =>
    `${name}: the card is ${student}'s, of ${where}; it was not trusted here and the photos after it wait in the tray`,
  summaryMatched: (byCard: number, byName: number) => `${byCard} matched by card, ${byName} by file name`,
  summaryTray: (count: number) => (count === 1 ? '1 photo waits in the unmatched tray' : `${count} photos wait in the unmatched tray`),
  summaryCards: (count: number) => (count === 1 ? '1 card photo (never shown to families)' : `${count} card photos (never shown to families)`),
  trayTitle: 'Unmatched tray',
  trayEmpty: 'No photos are waiting: every uploaded photo is with a child, a group photo or a card.',
  groupPhoto: 'Group photo',
  assignTo: 'Assign to...',
  cardLabel: 'Card',
  cardKnown: (name: string) => `Card: ${name}`,
  cardUnknown: 'Card: code not in this class',
  cardOtherClass: (name: string, where: string) => `Card: ${name} (${where})`,
  assigned: (name: string) => `Assigned to ${name}`,
} as const;

/** Publishing a class and the review sheet: staff's words, and what a family is told of a withdrawn photo. */
export const REVIEW_MSG = {
  statusInvalid: 'Status must be draft or published',
  publishAtInvalid: 'Publish date must be a date and time with its time zone, e.g. 2026-12-01T08:00:00+02:00',
  publishAtOnPublished: 'This class is already published. Set it back to draft to schedule its publication.',
  draft: 'Draft',
  published: 'Published',
  scheduled: (when: string) => `Publishes ${when}`,
  draftHint: 'Draft: families see nothing of this class until you publish it.',
  publishedHint: 'Published: families see the photos of their children.',
  pendingBadge: 'Waiting for review',
  pendingCount: (count: number) => (count === 1 ? '1 photo waits for review' : `${count} photos wait for review`),
  reviewTab: 'Review',
  reviewIntro:
    'Check each child\'s photos before families see them. Photos placed by a card or a file name after the class went live wait here until you release them.',
  publishClass: 'Publish class',
  releaseNew: (count: number) => (count === 1 ? 'Release 1 new photo' : `Release ${count} new photos`),
  unpublish: 'Back to draft',
  publishConfirmTitle: 'Publish this class?',
  publishConfirm: (visible: number) =>
    visible === 1 ? 'Families of this class will see 1 photo.' : `Families of this class will see ${visible} photos.`,
  releaseConfirmTitle: 'Release the new photos?',
  publishedTitle: 'Class Published',
  publishedText: (name: string, visible: number) => `${name} is published: families can see ${visible} photo(s).`,
  releasedText: (released: number) => (released === 1 ? '1 photo was released to its family.' : `${released} photos were released to their families.`),
  publishFailed: 'Failed to publish the class',
  publishAtLabel: 'Publish automatically at',
  publishAtHint: 'Leave empty to publish by hand. Photos that arrive after you schedule it still wait for review.',
  childSummary: (name: string, count: number, cards: string[]) =>
    `${name}: ${count === 1 ? '1 photo' : `${count} photos`}${cards.length > 0 ? `, placed by card ${cards.join(', ')}` : ''}`,
  groupTitle: 'Group photos',
  trayTitle: 'Unmatched tray',
  moveTo: 'Move to...',
  moveToGroup: 'Group photo',
  moveToTray: 'Unmatched tray',
  moved: (who: string) => `Moved to ${who}`,
  moveFailed: 'Failed to move the photo',
  placedByCard: (name: string) => `Placed by card ${name}`,
  photoLabel: (number: number) => `Photo ${number}`,
  soldMoved: 'Sold to another family: check and refund',
  soldMovedHelp:
    'A photo of this order was moved to another child after it was ordered. Its family is no longer shown it or sent its original. Check the order and refund the line in the PayGate back office.',
  photoWithdrawn: 'Photo withdrawn',
  photoWithdrawnHelp: 'This photo is no longer available to you. If you paid for it, the school photographer will refund it.',
  notOnlineYet: 'Photos of this class are not online yet. Please check back soon.',
  uploadRejectedTitle: 'Some files were refused',
  uploadRejected: (name: string, reason: string) => `${name}: ${reason}`,
  uploadPartly: (stored: number, refused: number) => `${stored} photo(s) stored, ${refused} refused`,
} as const;

/**
 * Deleting never destroys what was paid for; archived classes; restore within one class
 * (docs/access.md, "Photos that orders need" and "Archived classes").
 */
export const KEEP_PAID_MSG = {
  photosNeededByOrders: (orders: readonly string[]) =>
    `These photos are needed by orders that are paid and not delivered yet, whose download links still work, or whose payment is still in progress: ${orders.join(', ')}. Nothing was deleted. Archive the class instead: families no longer see it and the orders keep their photos.`,
  orderPhotosGone: 'Some photos of this order are no longer available, so it cannot be paid. Please place a new order.',
  archivedInvalid: 'Archived must be true or false',
  archived: 'Archived',
  archivedHint: 'Archived: families see nothing of this class. Its photos are kept for the orders that bought them.',
  archiveClass: 'Archive class',
  unarchiveClass: 'Unarchive class',
  archiveConfirmTitle: 'Archive this class?',
  archiveConfirm: 'Families will no longer see this class or its photos. Orders already placed keep their prints and download links.',
  archivedTitle: 'Class Archived',
  unarchivedTitle: 'Class Unarchived',
  archiveFailed: 'Failed to change the class',
  restoreClassRequired: 'Choose the class the files belong to',
  restoreClassLabel: 'Class of these files',
  restoreClassHint: 'Each file is matched by its file name to a missing photo of this class only.',
} as const;
