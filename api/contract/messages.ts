/** Every user-facing text the API answers with, in the product's exact words (docs/architecture.md, "One contract, shared"). */
export const MSG = {
  schoolNameRequired: 'School name is required',
  schoolSlugRequired: 'School slug is required',
  schoolSlugFormat: 'School slug may contain only lowercase letters, digits and hyphens',
  passwordMin: 'Password must be at least 6 characters',
  passwordTooLong: 'Password is too long',
  passwordRequired: 'Password is required',
  schoolPasswordRequired: 'A school password (at least 6 characters) is required: families of this school use it to open the gallery',
  validEmail: 'Valid email is required',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  confirmPasswordRequired: 'Please confirm your password',
  passwordsDontMatch: "Passwords don't match",
  nameRequired: 'Name is required',
  studentNameRequired: 'Student name is required',
  priceListNameRequired: 'Please enter a price list name',
  priceListProductsRequired: 'Please add at least one product with name and price',
  classNameRequired: 'Please enter a class name',
  selectSchoolFirst: 'Please select a school first',
  noFilesSelected: 'Please select photos to upload',
  invalidFiles: 'Please select image files only (JPG, PNG, GIF)',
  notLoggedIn: 'Not logged in. Please log in and try again.',
  noResetToken: 'No reset token found',
  resetLinkInvalid: 'This password reset link is invalid or has expired.',

  invalidCredentials: 'Invalid email or password',
  invalidSchoolPassword: 'Invalid password. Please try again.',
  incorrectClassPassword: 'Incorrect password. Please try again.',
  registrationClosed: 'Registration is closed. Ask an administrator to create your account.',
  emailTaken: 'An account with this email already exists',
  slugTaken: 'A school with this slug already exists',
  authRequired: 'Authentication required',
  sessionExpired: 'Your session has expired. Please log in again.',
  staffOnly: 'This action is for staff accounts',
  adminOnly: 'Only an administrator can do this',
  customerOnly: 'This action is for customer accounts',
  schoolAccessRequired: 'Enter the school password to view its photos',
  /** An unlock or forget sent by a page of another site (docs/access.md, "Grants end"). */
  crossSiteUnlock: 'Please unlock photos from this shop\'s own pages.',
  classAccessRequired: 'Enter the class password to view its photos',
  schoolNotFound: 'School not found',
  classNotFound: 'Class not found',
  photoNotFound: 'Photo not found',
  priceListNotFound: 'Price list not found',
  schoolHasOrders: 'This school has orders, so it cannot be deleted. Orders must be kept for the school and the parents.',
  photographerNotFound: 'Photographer not found',
  imageNotFound: 'Image not found',
  cannotDeleteSelf: 'You cannot delete your own account',
  cannotDeleteLastAdmin: 'The last administrator cannot be deleted',
  tooManyAttempts: 'Too many attempts. Please wait before trying again.',
  malformedJson: 'The request body is not valid JSON',
  invalidRequest: 'The request is not valid',
  notFound: 'Not found',
  serverError: 'Something went wrong on our side. Please try again.',
  tooManyFiles: 'Cannot add more than 500 photos at once',
  fileTooLarge: (name: string) => `${name} exceeds the 10MB limit`,
  fileNotImage: (name: string) => `${name} is not a JPG, PNG or GIF image`,
  fileCorrupt: (name: string) => `${name} is damaged or not a readable image`,
  fileTooManyPixels: (name: string) => `${name} has too many pixels to process`,
  fileEmpty: (name: string) => `${name} is empty`,
  photoIdsRequired: 'Select at least one photo',
  noMissingPhotos: 'No matching missing photo',
  restoredPhoto: 'Photo restored',
  photosUploaded: (count: number) => `Uploaded ${count} photos`,
  /** The same answer for known and unknown addresses, so it tells nobody who has an account (docs/accounts.md). */
  resetLinkSent: 'If an account exists with this email, a password reset link has been sent.',
  /** 409 on register: the address may belong to an account made at checkout that has no password yet. */
  customerEmailTaken: 'An account with this email already exists. Sign in, or use Forgot password to set a new password.',
  /** Staff passwords and sessions (docs/accounts.md, "Staff passwords" and "Staff sessions"). */
  currentPasswordRequired: 'Enter your current password',
  currentPasswordWrong: 'Your current password is not correct',
  passwordChanged: 'Password changed. Your other devices are signed out.',
  sessionsRevoked: 'Signed out everywhere: this account must sign in again on every device.',
  cannotRevokeSelf: 'To sign yourself out everywhere, change your password',
  /** Production on an empty database: the first administrator comes from `npm run create-admin` (docs/accounts.md, "The first administrator"). */
  registrationServerOnly: 'Registration is closed. The first administrator is created on the server with npm run create-admin.',
  /** What only an administrator may do (docs/accounts.md, "What a photographer may not do"). */
  adminOnlyAccessMode: 'Only an administrator can switch how families get into a school',
} as const;

export const ORDER_MSG = {
  pricesChanged: 'Prices in your cart have changed. Please review your cart and try again.',
  productUnavailable: (name: string) => `${name} is not available for this school. Please review your cart.`,
  printsClosed: (name: string) => `Print ordering has closed for this school: ${name} can no longer be ordered. Only digital download options are available.`,
  photoNotInSchool: 'A photo in your cart does not belong to this school. Please review your cart.',
  orderNotFound: 'Order not found',
  alreadyPaid: 'This order has already been paid',
  orderCancelled: 'This order has been cancelled',
  notYourOrder: 'Only the person who placed this order can cancel it.',
  notCancellable: 'This order is already being prepared and can no longer be cancelled.',
  paymentUnavailable: 'Unable to process payment',
  downloadNotReady: 'This download is available once the order is paid',
  downloadInvalid: 'This download link is invalid or has expired. Open My Orders for a new link.',
  idempotencyKeyFormat: 'Idempotency-Key must be 8 to 100 letters, digits, - or _',
  statusFilterInvalid: (statuses: readonly string[]) => `Order status must be one of ${statuses.join(', ')}`,
  schoolFilterInvalid: 'School must be a school id',
} as const;

/** Class rosters, private student codes and the privacy controls. */
export const STUDENT_MSG = {
  nameRequired: 'Student name is required',
  nameTooLong: 'Student name is too long',
  numberTooLong: 'Student number is too long',
  rosterEmpty: 'Add at least one student',
  rosterTooManyRows: (max: number) => `A roster can have at most ${max} students at once`,
  rosterTooLarge: 'The roster file is too large',
  rosterUnreadable: 'The roster could not be read as CSV. Check the quotes and commas.',
  rosterNotUtf8: 'The roster is not UTF-8 text. Save it as "CSV UTF-8" and try again.',
  rosterHasErrors: (count: number) =>
    `${count} ${count === 1 ? 'row has a problem' : 'rows have problems'}. Nothing was imported: fix them and try again.`,
  rosterType: 'Send the roster as JSON or as text/csv',
  duplicateInFile: (row: number) => `Same student as row ${row}`,
  duplicateNumberInFile: (row: number) => `Student number already used in row ${row}`,
  alreadyInClass: 'This student is already in the class',
  numberTaken: 'Another student in this class has this student number',
  studentNotFound: 'Student not found',
  codeRequired: 'Enter the student code from the flyer',
  codeFormat: 'A student code has 8 letters and digits, like K7Q2-M9XD',
  codeNotRecognised: "We don't recognise that code. Check it on the flyer and try again.",
  studentAccessRequired: "Enter this child's code to see their photos",
  schoolUsesCodes: "This school shares photos with each family through a private student code. Enter the code from your child's flyer.",
  photosNotInClass: "Every photo must belong to the student's class",
  studentHasPhotos: 'This student has photos. Assign them to someone else or to the group first, or erase the student.',
  photoNotAvailable: 'This photo is not available.',
  photoRemovedText: "photo removed at the family's request",
  noteRemovedText: "note removed at the family's request",
  nameRemovedText: '[name removed]',
  noStudentsForFlyers: 'This class has no students yet. Add the class roster first.',
  flyerHeading: 'Your child\'s school photos',
  flyerCodeLabel: 'Private code',
  flyerClosing: (date: string) => `Order prints by ${date}`,
  flyerClosed: 'Print ordering has closed: digital copies can still be ordered',
  flyerNoClosingDate: 'No closing date yet: order any time',
  flyerHowTo: (site: string) => `Scan the QR code, or open ${site} and choose "I have a student code". Keep this code private: it shows your child's photos.`,
} as const;

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

/** Texts of the hardening work: refused requests, an unavailable database, payments and the screens that report them. */
export const HARDENING_MSG = {
  methodNotAllowed: (method: string) => `${method} is not allowed here`,
  methodNotImplemented: (method: string) => `${method} is not supported by this server`,
  badContentEncoding: 'The request body does not match its Content-Encoding',
  unsupportedContentEncoding: (encoding: string) => `Content-Encoding ${encoding} is not supported`,
  requestTooLarge: 'The request is too large',
  bodyTimeout: 'The request body arrived too slowly. Please try again.',
  uploadTooLarge: 'The upload is too large. Send at most 10 photos of up to 10MB each per request.',
  tooManyFilesPerRequest: 'Send at most 10 photos per request',
  databaseUnavailable: 'The service is briefly unavailable. Please try again in a moment.',
  paymentInProgress: 'A payment for this order is being set up. Please try again in a moment.',
  idempotencyKeyReused: 'This Idempotency-Key was already used for a different order. Send a new key for a new order.',
  paidTwice: (extra: number) => (extra === 1 ? 'Paid twice, refund one' : `Paid ${extra + 1} times, refund ${extra}`),
  paidTwiceHelp: 'The gateway approved more than one payment for this order. Refund the extra payment in the PayGate back office (search for the order number).',
  paidAfterCancel: (payments: number) => (payments === 1 ? 'Paid after cancellation: refund' : `Paid ${payments} times after cancellation: refund each`),
  /** My Orders, to the parent: the same order as the family sees it. */
  paidAfterCancelFamily: 'This order was cancelled before your payment went through. The payment will be refunded to your card.',
  paidAfterCancelHelp: 'The gateway approved a payment after this order was cancelled. The order stays cancelled and is not revenue: refund the payment in the PayGate back office (search for the order number).',
  sessionExpiredTitle: 'Session Expired',
  pricesLoading: 'Loading products...',
  pricesFailed: 'We could not load the products and prices for this school.',
  tryAgain: 'Try Again',
  removeClassPassword: 'Remove the password',
  keepClassPasswordHint: 'Leave empty to keep the current password, or type a new one.',
  accountCreatedTitle: 'Account Created',
  accountCreated: (email: string) => `We created an account for ${email}. Check your email to set a password and see this order in My Orders.`,
  priceListFailed: { create: 'Failed to create price list', update: 'Failed to update price list', delete: 'Failed to delete price list' },
  restoreHttpFailed: (statusText: string) => `Upload failed: ${statusText}`,
  resetRateLimited: 'Too many attempts. Please wait a few minutes before trying again.',
  resetNetwork: 'We could not reach the server. Check your connection and try again.',
  unsupportedContentType: 'Unsupported content type',
  multipartRequired: 'Send this form as multipart/form-data',
  tooManyFormFields: 'The form has too many fields',
  uploadInterrupted: 'The upload was interrupted',
  multipartUnreadable: 'The upload could not be read as a multipart form',
  /** Stands for the file's name when the upload failed before one was known. */
  unnamedFile: 'A file',
} as const;

/** Print batches for the lab: API answers, and the words of the ZIP, packing list and labels. */
export const PRINT_BATCH_MSG = {
  schoolRequired: 'Choose a school for the print batch',
  nothingReady: 'There is nothing to print for this school yet: no paid orders with prints are waiting.',
  createRace: 'Another print batch for this school was created at the same moment. Reload to see it.',
  notFound: 'Print batch not found',
  statusInvalid: 'Status must be ready_for_delivery or delivered',
  statusBackwards: (current: string, requested: string) => `This batch is already ${current}; it cannot go back to ${requested}.`,
  fileInvalid: 'File must be files.zip, packing-list.pdf or labels.pdf',
  linkInvalid: 'This download link is invalid or has expired. Download the file again from Print batches.',

  batchNumber: (id: number) => `Batch #${id}`,
  packingListTitle: 'Packing list',
  labelsTitle: 'Envelope labels',
  /** The label stock labels.pdf is laid out for (LABEL_SHEET in api/src/print-batches/labels-pdf.ts). */
  labelStock: 'A4 sheet of 14 labels, 2 × 7, 99.1 × 38.1 mm (Avery L7163 or equivalent)',
  labelStockNote: (stock: string) => `Labels print on an ${stock}; each label is outlined, so plain paper can be cut instead.`,
  pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
  batchTotals: (orders: number, prints: number) => `${orders} order(s) · ${prints} print(s)`,
  classHeading: (name: string, orders: number) => `${name} · ${orders} order(s)`,
  classContinued: (name: string) => `${name} (continued)`,
  columns: { packed: 'Packed', student: 'Student', parent: 'Parent', order: 'Order', items: 'Items' },
  receivedBy: 'Received by (class teacher): ______________________   Date: ____________',
  noClass: 'No class',
  orderNumber: (id: string) => `Order #${id}`,
  moreItems: (count: number) => `+${count} more (see the packing list)`,
  missingTitle: 'Originals missing from storage',
  missingIntro:
    'These print lines have no original file in storage, so they are not in this ZIP. Restore the photos in Photo Recovery, then download the batch again.',
  orderSheetColumns: ['Order Number', 'School', 'Class', 'Student', 'Product', 'Quantity', 'File', 'Original Number', 'Original Name'],
  /** Lines a batch does not print (docs/access.md, "Prints follow the rules"). */
  leftOutTitle: (count: number) => (count === 1 ? '1 print left out' : `${count} prints left out`),
  leftOutIntro: 'These lines are not in the ZIP, the packing list or the labels. Check each order and refund the line in the PayGate back office.',
  leftOutReasons: {
    erased: 'Photo removed (erased or deleted)',
    do_not_publish: 'Child marked do not publish',
    not_the_child: 'Photo no longer belongs to the ordering child',
  },
} as const;

export const STATIC_MSG = {
  badPath: 'The address is not valid',
} as const;

export const THUMBNAIL_MSG = {
  badSize: 'Thumbnail size must be small, or left out for the full thumbnail',
} as const;

/** Student routes: the id check of `?student=` and the answer to a removal. */
export const STUDENT_ROUTE_MSG = {
  studentIdInvalid: 'Student id must be a positive whole number',
  studentRemoved: 'Student removed',
} as const;

/** Print-batch routes' id checks, and a photo on staff screens and packing lists known only by its id. */
export const PRINT_BATCH_ROUTE_MSG = {
  batchIdInvalid: 'Print batch id must be a positive whole number',
  schoolFilterInvalid: 'School must be a school id',
  photoById: (id: number | null) => `ID: ${id ?? '-'}`,
} as const;

/** School, class, price-list, photo and staff-account routes: their id checks and the answers to a removal. */
export const CATALOGUE_ROUTE_MSG = {
  schoolIdInvalid: 'School id must be a positive whole number',
  schoolDeleted: 'School deleted',
  classIdInvalid: 'Class id must be a positive whole number',
  classDeleted: 'Class deleted',
  priceListIdInvalid: 'Price list id must be a positive whole number',
  priceListDeleted: 'Price list deleted',
  staffIdInvalid: 'Photographer id must be a positive whole number',
  staffDeleted: 'Photographer deleted',
  /** A class belongs to a school, so the upload form picks both; a missing class means neither was chosen. */
  selectClassFirst: 'Please select a school and class first',
} as const;

/** Texts of the PWA's screens that several screens say: toast titles, fallbacks and buttons. */
export const PWA_MSG = {
  errorTitle: 'Error',
  updateFailedTitle: 'Update Failed',
  uploadFailedTitle: 'Upload Failed',
  downloadFailedTitle: 'Download Failed',
  downloadCompleteTitle: 'Download Complete',
  loginSuccessTitle: 'Login Successful',
  loginFailedTitle: 'Login Failed',
  welcomeBack: 'Welcome back!',
  accessGrantedTitle: 'Access Granted',
  accessDeniedTitle: 'Access Denied',
  addedToCartTitle: 'Added to Cart',
  /** The spec's words exactly. */
  productsAdded: (count: number) => `${count} product(s) added to your cart`,
  /** The cart holds photos of several schools: one order per school, the rest wait in the cart. */
  otherSchoolsWait: (schools: number, first: string, later: string) =>
    `Your cart has photos from ${schools} schools. Each school's prints are delivered to that school, so each is a separate order: this order is for ${first}. ${later} stay in your cart for your next order.`,
  schoolItems: (school: string, items: number) => `${school} (${items} ${items === 1 ? 'item' : 'items'})`,
  offlineTitle: 'You are offline',
  classCreatedTitle: 'Class Created',
  createClassFailed: 'Failed to create class',
  updateStudentFailed: 'Failed to update the student',
  assignPhotosFailed: 'Failed to assign photos',
  resetFailed: 'Failed to reset password. The link may be expired or invalid.',
  working: 'Working...',
  emailSentTitle: 'Email sent!',
  resetEmailFailed: 'Failed to send reset email. Please try again.',
  resetSuccessTitle: 'Password reset successful!',
  /** The first password of an account made at checkout (its e-mail's link carries first=1). */
  firstPasswordTitle: 'Set Your Password',
  firstPasswordHint: 'Choose a password of at least 6 characters to see your orders and downloads any time.',
  passwordSetTitle: 'Password set',
  setPassword: 'Set Password',
  resetLoggedIn: "You've been automatically logged in to your account.",
  resetFailedTitle: 'Reset failed',
  registrationFailedTitle: 'Registration Failed',
  registerFailed: 'Could not create your account. Please try again.',
  paymentSetupFailedTitle: 'Payment Setup Failed',
  paymentErrorTitle: 'Payment Error',
  paymentInitFailed: 'Unable to initiate payment. Please try again.',
  orderFailedTitle: 'Order Failed',
  createOrderFailed: 'Failed to create order. Please try again.',
  childForgottenTitle: 'Child Forgotten',
  childForgotten: (name: string) => `${name}'s photos were removed from this device.`,
  forgetChildFailed: 'Could not forget this child. Please try again.',
  photosFailed: 'We could not load the photos of this class. Check your connection and try again.',
  classesFailed: 'We could not load the classes of this school. Check your connection and try again.',
  childPhotosReady: (name: string) => `Welcome! ${name}'s photos are ready.`,
  welcomeToSchool: (school: string) => `Welcome to ${school}`,
  welcomeName: (firstName: string) => `Welcome, ${firstName}!`,
  updateAvailableTitle: 'Update available',
  updateAvailable: 'A new version of the app is ready.',
} as const;

/** Payment methods (issue 23, docs/payments.md "Payment methods"): the checkout's choice, the awaiting state, staff flags. */
export const PAYMENT_METHOD_MSG = {
  methods: {
    card: { label: 'Card', description: 'Visa, Mastercard or American Express' },
    ewallet: { label: 'Mobile money (e-wallet)', description: 'Pay from your mobile money wallet and confirm on your phone' },
    bank_transfer: { label: 'Bank transfer', description: 'Pay from your bank; your order is confirmed when the money arrives (up to a few days)' },
  },
  chooseTitle: 'How would you like to pay?',
  methodNotEnabled: 'This payment method is not available. Please choose another one.',
  /** The confirmation page while a slow method has not settled yet. */
  awaitingTitle: 'Awaiting payment confirmation',
  awaitingBankTransfer: (reference: string, deadline: string) =>
    `Pay by bank transfer using the reference ${reference} by ${deadline}. We will e-mail you as soon as the money arrives; you can close this page.`,
  awaitingGeneric: 'PayGate has received your payment and is waiting for it to be confirmed. This page updates by itself.',
  awaitingEwallet: 'Confirm the payment on your phone. We will e-mail you as soon as it is confirmed; you can close this page.',
  /** Staff: an approval after a bank transfer expired (the money is recorded, the order flagged). */
  paidAfterExpiry: 'Paid after expiry: check',
  paidAfterExpiryHelp:
    'The bank transfer was confirmed after its deadline had passed. The money is recorded; check the order (prices, products, whether the parent paid again) before sending it to the lab.',
  /** The one e-mail when an unconfirmed bank transfer expires. */
  expiredEmailSubject: (orderId: string) => `Your payment for order ${orderId} has expired`,
  expiredEmailBody: (orderId: string, days: number) =>
    `We did not receive your bank transfer for order ${orderId} within ${days} days, so the payment has expired and the order is not paid. You can pay again with the link below.`,
  expiredEmailAction: 'Pay again',
  /** CSV export: the new last column (the spec's columns keep their order). */
  csvColumn: 'Payment Method',
  /** Staff order management: "Chosen: Bank transfer · Gateway: BT (SID)". */
  staffChosen: 'Chosen',
  staffReported: 'Gateway',
  notChosen: 'Not chosen',
  /** Staff order detail: the term before "Bank transfer · Gateway: BT (SID)". */
  staffTerm: 'Payment method',
  /** The confirmation page and My Orders while a bank transfer waits: what to quote and by when. */
  awaitingReference: 'Reference',
  awaitingDeadline: 'Pay by',
  awaitingBankTransferOpen: (reference: string) =>
    `Pay by bank transfer using the reference ${reference}. We will e-mail you as soon as the money arrives; you can close this page.`,
  /**
   * My Orders while a payment waits: paying another way is offered one step further, since both
   * payments may then arrive (docs/payments.md, "Switching method").
   */
  payAnotherWay: 'Pay another way',
  payAnotherWayHelp: 'Changed your mind? You can pay another way instead, but only if you have not paid this way: if both payments arrive, one is refunded.',
  /**
   * How the how-it-works page and the checkout name the enabled methods (one list, from
   * `GET /api/payment/methods`): "by card (…), mobile money (e-wallet) or bank transfer". The card
   * keeps the spec's wording of the how-it-works page ("Visa, Mastercard and American Express").
   */
  names: {
    card: 'card (Visa, Mastercard and American Express)',
    ewallet: 'mobile money (e-wallet)',
    bank_transfer: 'bank transfer',
  },
  /** Under the checkout form: "You will pay by bank transfer on PayGate's secure page. …" */
  checkoutNote: (payBy: string) => `You will pay ${payBy ? `${payBy} ` : ''}on PayGate's secure page. Orders are delivered to the school.`,
  payBy: (names: readonly string[]) =>
    names.length === 0 ? '' : `by ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`}`,
} as const;

/** The payment result page: its heading and words for each state of the order's payment. */
export const PAYMENT_RESULT_MSG = {
  successful: { title: 'Payment Successful', text: 'Thank you! Your payment was received and your order is confirmed. Prints are delivered to the school.' },
  pending: { title: 'Payment Pending', text: 'We are waiting for PayGate to confirm your payment. This page updates by itself.' },
  declined: { title: 'Payment Declined', text: 'Your card was declined and you have not been charged. You can try again with another card.' },
  cancelled: { title: 'Payment Cancelled', text: 'The payment was cancelled and you have not been charged.' },
  insufficient_funds: { title: 'Insufficient Funds', text: 'The card has insufficient funds and you have not been charged. You can try again with another card.' },
  failed: { title: 'Payment Failed', text: 'The payment did not go through and you have not been charged. Please try again.' },
  orderCancelled: { title: 'Order Cancelled', text: 'This order was cancelled, so it is not confirmed. If a payment for it went through, it will be refunded.' },
} as const;

/** The confirmation page for a reader who only has the order's id (docs/access.md, "Reading an order"). */
export const ORDER_SUMMARY_MSG = {
  paidNote: 'Prints are delivered to the school. Digital copies can be downloaded from My Orders.',
  signInForDetails: 'Sign in to see this order\'s photos, details and downloads. They are shown only to the account that placed it, or in the browser it was placed from.',
} as const;

/** The checkout's cart checked against the school's current products (docs/money-and-pricing.md#cart-price-mismatch). */
export const CART_MSG = {
  checkingPrices: 'Checking the current prices...',
  pricesChangedTitle: 'Prices have changed',
  pricesChangedIntro: 'Some prices changed since you added these photos. Your cart now shows the new prices:',
  priceChange: (product: string, from: string, to: string) => `${product}: ${from} → ${to}`,
  acceptNewPrices: 'Accept New Prices',
  acceptBeforeOrdering: 'Accept the new prices to place your order.',
  productGone: 'No longer available for this school',
  printClosed: 'Print ordering has closed: only digital copies can be ordered',
  unpaidOrder: (id: string) => `Order #${id} for these photos has not been paid yet. Pay it now, or change your cart and place a new order: Order #${id} is then cancelled.`,
  payUnpaid: (id: string) => `Pay Order #${id}`,
  cancelOrder: 'Cancel Order',
  keepOrder: 'Keep Order',
  cancelConfirmTitle: (id: string) => `Cancel Order #${id}?`,
  cancelConfirmCart: 'Nothing has been charged for this order. Your photos stay in your cart.',
  cancelConfirmOrders: 'Nothing has been charged for this order. It is removed from My Orders.',
  orderCancelledTitle: 'Order Cancelled',
  orderCancelled: (id: string) => `Order #${id} was cancelled. Nothing was charged.`,
  alreadyPaidTitle: 'Already Paid',
  alreadyPaid: (id: string) => `Order #${id} is already paid.`,
  payNow: 'Pay Now',
  photosAndProducts: (photos: number, products: number) =>
    `${photos} ${photos === 1 ? 'photo' : 'photos'}, ${products} ${products === 1 ? 'product' : 'products'}`,
  awaitingPayment: 'Awaiting payment',
  removeUnavailable: (count: number) =>
    `${count === 1 ? 'An item in your cart is' : `${count} items in your cart are`} no longer sold. Remove ${count === 1 ? 'it' : 'them'} to place your order.`,
  /** The priced summary from the server's quote (docs/packages-and-coupons.md, "The order of discounts"). */
  subtotal: 'Subtotal',
  total: 'Total',
  quoteLoading: 'Working out your total...',
  quoteFailed: 'We could not check your total with the school just now. The server checks it again when you place your order.',
  quantityOfPackage: (name: string) => `Quantity of ${name}`,
  removePackage: (name: string) => `Remove ${name}`,
} as const;

/** The help page (/help): the questions a parent asks before and after ordering, by section id. */
/** The "Contact your school" link (on the first screen: kept apart from the help page's long texts). */
export const CONTACT_MSG = {
  contactSchool: 'Contact your school',
  contactSubject: (school: string) => `School photos: ${school}`,
} as const;

export const HELP_MSG = {
  title: 'Help',
  intro: 'Answers to the questions parents ask most. Step by step pictures of ordering are on the How It Works page.',
  sections: [
    {
      id: 'access',
      question: "How do I open my child's photos?",
      answer: [
        "Your school chose one of two ways. Most schools share a school password with parents: choose the school on the home page and type it. A class can have its own password too; the school gives it to that class's parents.",
        "Other schools give each family a flyer with a private student code. Type the code under \"I have a student code\", or scan the flyer's QR code with your phone's camera. A code opens only your child's photos and their class's group photos. Use \"Add Another Child\" for a brother or sister.",
      ],
    },
    {
      id: 'contact',
      question: "I don't have the password or code",
      answer: [
        'Only your school can give it to you. On the home page, choose your school and press "Contact your school" under the password: it writes an e-mail to the school office. A lost flyer can be printed again by the school.',
      ],
    },
    {
      id: 'ordering',
      question: 'How do I order?',
      answer: [
        'Open a photo, tick the products you want, choose how many, and press "Add to Cart". When you are done, open the cart and press "Place Order and Pay".',
        "Photos of children at different schools are separate orders, because each school's prints are delivered to that school: the checkout takes one school at a time and keeps the others in your cart.",
        'If the studio changes a price while a photo waits in your cart, the checkout shows the old and the new price and asks you to accept it before you pay.',
      ],
    },
    {
      id: 'payment',
      question: 'How do I pay, and what if the payment fails?',
      answer: [
        "Prices are in Botswana Pula. You pay by card on PayGate's secure page; we never see your card number.",
        'If the card is declined or you leave the payment page, nothing is charged and your photos stay in your cart. Press "Try Again", or open the cart: it offers to pay the same order. Signed in, you can also pay or cancel an unpaid order in My Orders.',
      ],
    },
    {
      id: 'delivery',
      question: 'Where are my prints delivered?',
      answer: ['Prints are delivered to the school, not to your home. The school lets you know when they are ready to collect.'],
    },
    {
      id: 'digital-copies',
      question: 'How do I get a digital copy?',
      answer: [
        'Once the payment is confirmed, a Download link appears on the order page, in the confirmation e-mail and in My Orders. Each link works for 30 days; My Orders always has fresh ones.',
      ],
    },
    {
      id: 'closing-dates',
      question: 'Is there a deadline?',
      answer: ["A school may have a closing date for prints. After it the gallery says so, and only digital copies can still be ordered."],
    },
    {
      id: 'account',
      question: 'Do I need an account?',
      answer: [
        'No. Your first order creates an account with your e-mail address, and we e-mail you a link to choose a password. With it, My Orders shows all your orders and their downloads.',
      ],
    },
    {
      id: 'data',
      question: 'My phone has little data. Does the app work offline?',
      answer: [
        'Add the app to your home screen when your browser offers it. Classes and photos you opened once are kept on the phone and open without a connection; your cart is saved too. Photos you have not opened yet show when you are back online, and ordering needs a connection.',
      ],
    },
  ],
  privacyLink: 'How we look after your family’s information',
} as const;

/** The privacy notice (/privacy): what is kept about children and guardians, for how long, and erasure. */
export const PRIVACY_MSG = {
  title: 'Privacy Notice',
  intro: (business: string) =>
    `${business} photographs children at their schools and sells the photos to their families. This notice says what we keep about children and their parents or guardians, why, for how long, and how to have it removed. We process personal data under the Botswana Data Protection Act, 2024.`,
  sections: [
    {
      id: 'what',
      heading: 'What we keep',
      items: [
        "About children: their photos, and where the school uses student codes, the child's name, class, an optional student number and a private code.",
        'About parents and guardians who order: name, e-mail address, optional phone number, the student name typed at checkout, notes, what was ordered and whether it was paid. We never see or keep card numbers: PayGate handles the payment.',
        'If you create an account or it is created at checkout: your name, e-mail address and a scrambled form of your password.',
        'On your own phone: the codes and classes you opened, your cart and the photos you viewed, so they work offline.',
      ],
    },
    {
      id: 'why',
      heading: 'Why',
      items: [
        "To show each family only the photos they may see, to take and deliver orders, to send order and password e-mails, and to keep the studio's accounts. We do not sell or share this information for advertising.",
        'Photos are shown only behind the school password, a class password or the child\'s own code, with a watermark; the full photo is sent only to the family that paid for a digital copy. A child whose school asks for it is never shown or sold at all.',
      ],
    },
    {
      id: 'how-long',
      heading: 'How long',
      items: [
        'Photos, student names and codes: for as long as the school works with us, or until the family or the school asks us to remove them.',
        'Orders and accounts: as long as the law requires us to keep business records; a child removed at the family\'s request is also removed from orders (they keep only the words "photo removed at the family\'s request").',
        'On your phone: access to a school or child lasts 7 days from the last password or code typed, a sign-in 30 days. "Forget this child on this device" removes a child, their photos and their cart lines from the phone at once.',
      ],
    },
    {
      id: 'erasure',
      heading: 'Your rights and how to ask for erasure',
      items: [
        'You may ask to see the information we keep about you or your child, to have it corrected, and to have your child\'s photos and details erased. Ask your child\'s school (use "Contact your school" on the home page), which passes the request to us, or reply to any e-mail we sent you.',
        'When a child is erased, their photos are deleted, their code stops working on every phone, and their name is removed from orders. Orders that were not paid are cancelled.',
        'If you are not satisfied with our answer you may complain to the Information and Data Protection Commission of Botswana.',
      ],
    },
  ],
} as const;

/** The photo dialog's browsing between photos. */
export const OFFLINE_MSG = {
  galleryOffline: 'You are offline. Photos you opened before are shown; the others appear when you are back online.',
  photoWhenOnline: 'Available when online',
} as const;

export const PHOTO_DIALOG_MSG = {
  previous: 'Previous photo',
  next: 'Next photo',
  position: (index: number, count: number) => `${index} of ${count}`,
} as const;

/**
 * The consent a guardian gives when subscribing (docs/outreach.md, "Consent"). The version is
 * stored with each guardian: change the text, change the version.
 */
export const CONSENT = {
  version: '2026-11-27',
  offer: 'E-mail me when photos are online and before ordering closes',
  text: "I am this child's parent or guardian, and I agree that the studio keeps my e-mail address and which child or school I follow, to e-mail me when photos are online and before ordering closes. I can unsubscribe in one click from any of these e-mails.",
  marketing: 'Also e-mail me about offers and new products from the studio (optional)',
} as const;

/** The API's answers about guardians, the season timeline and the outbox. */
export const OUTREACH_MSG = {
  consentRequired: 'Please tick the box to agree before we e-mail you',
  marketingBoolean: 'marketing must be true or false',
  timeFormat: 'Use a time like 08:00',
  reminderDays: 'Reminder days must be whole numbers of days from 1 to 60',
  tooManyReminders: 'At most 5 reminders',
  windowOrder: 'The sending window must end after it starts',
  photosOnlineBoolean: 'photosOnline must be true or false',
  testKind: 'Choose which message to test',
  kindLabels: {
    set_password: 'Set your password',
    password_reset: 'Password reset',
    staff_password_reset: 'Staff password reset',
    order_confirmation: 'Order confirmation',
    payment_expired: 'Payment expired',
    guardian_confirm: 'Confirm your e-mail',
    photos_online: 'Photos are online',
    closing_reminder: 'Ordering closes soon',
    abandoned_cart: 'Still in your cart',
    unpaid_order: 'Order waiting for payment',
  },
} as const;

/** Guardians: subscribe, confirm, unsubscribe, erase (texts of the API and its e-mails). */
export const GUARDIAN_MSG = {
  subscribeAccepted: 'Thank you. Please check your e-mail and click the link to confirm your address.',
  nothingUnlocked: "Open your child's photos with the code on the flyer, or your school's gallery with its password, then ask us to e-mail you about them.",
  confirmed: 'Your e-mail address is confirmed. We will e-mail you when photos are online and before ordering closes.',
  confirmLinkInvalid: 'This confirmation link is not valid or has expired. Please ask again from the gallery.',
  tokenRequired: 'The link is missing its token',
  unsubscribeLinkInvalid: 'This unsubscribe link is not valid. Please use the link in your most recent e-mail from us.',
  unsubscribePrompt: 'Unsubscribe this address? We will stop every reminder and offer to it at once.',
  unsubscribed: 'You are unsubscribed. We will not e-mail you about photos, reminders or offers again unless you subscribe again.',
  guardianNotFound: 'Guardian not found',
  erased: 'The guardian was erased: their address, what they followed, their cart and their messages are gone.',
  confirmSubject: (business: string) => `Please confirm your e-mail for ${business}`,
  confirmIntro: (business: string, followed: string) =>
    `You asked ${business} to e-mail you about ${followed}: when the photos are online and before ordering closes. Please confirm that this is your address:`,
  /** What a request follows, in the confirmation e-mail (no child is named: the address is not yet proven). */
  followedChildren: (count: number, schools: string) => `the photos of ${count === 1 ? 'your child' : `your ${count} children`} at ${schools}`,
  followedSchools: (schools: string) => `the photos of ${schools}`,
  followedBoth: (children: string, schools: string) => `${children}, and ${schools}`,
  confirmButton: 'Confirm my e-mail address',
  confirmMarketing: 'You also asked for offers and new products from the studio; confirming says yes to that too.',
  confirmValidity: (days: number) => `The link is valid for ${days} days. If you did not ask for this, ignore this e-mail: we will not e-mail you.`,
} as const;

/** The season timeline: "photos are online" and the reminders before closing (texts of the API and its e-mails). */
export const SEASON_MSG = {
  photosOnlineSubject: (school: string) => `Photos from ${school} are online`,
  pictureDayFormat: 'Picture day must be a date (YYYY-MM-DD)',
  scheduleSaved: 'Message schedule saved',
  testSubjectPrefix: '[Test] ',
  /** Example content of a test message. */
  testPhotoName: 'Photo 1',
  testProductName: 'Example product',
  testCustomerName: 'Parent',
  testOrderId: 'TEST-ORDER',
  testOrderThebe: 15_000,
  testSent: (email: string) => `A test was sent to ${email}. It can take a minute to arrive.`,
  /** E-mails: "photos are online". */
  greeting: 'Hello,',
  photosOnlineIntro: (school: string, klass: string | null) =>
    klass ? `The photos of ${klass} at ${school} are now online.` : `The photos from ${school} are now online.`,
  photosOnlineChild: (child: string) => `You can see ${child}'s photos and order prints or digital copies.`,
  photosOnlineNoChild: 'You can see them and order prints or digital copies.',
  closingOn: (date: string) => `Ordering closes at the end of ${date}.`,
  noClosingDate: 'The school has not set a closing date for orders yet.',
  openGallery: 'See the photos',
  galleryLinkText: 'Open the gallery:',
  /** E-mails: the reminders before closing. */
  closingSubject: (school: string, days: number) => (days === 1 ? `Last day tomorrow: order your ${school} photos` : `${days} days left to order your ${school} photos`),
  closingIntro: (school: string, date: string) => `Ordering of the photos from ${school} closes at the end of ${date}.`,
  closingChild: (child: string) => `If you would like ${child}'s photos, please order before then.`,
  closingNoChild: 'If you would like any, please order before then.',
  closingAfter: 'After that date the photos can no longer be ordered.',
  whyYouGetThis: 'You are receiving this because you asked to hear about these photos, or the school gave us your address for its class list.',
  unsubscribe: 'Stop these e-mails:',
  unsubscribeLink: 'Unsubscribe',
  /** Why a message is not planned yet (the staff preview). */
  notPublished: 'The class is not published yet',
  noPhotos: 'The class has no photos yet',
  photosOnlineOff: 'Turned off in the schedule',
  tooOld: 'Published more than 7 days ago: not sent late',
  noClosingDateReason: 'The school has no closing date',
  closed: 'Ordering has closed',
  missed: 'Its time passed; a later reminder goes instead',
  beforePublish: 'Due before any class was published',
  noClassOnline: 'No class is published with photos yet',
  /** Why a recipient is left out (the staff preview). */
  skippedPaid: 'Already ordered and paid',
  skippedUnsubscribed: 'Unsubscribed',
  skippedNotConfirmed: 'Has not confirmed the address yet',
  skippedDoNotPublish: 'The child is marked do not publish',
} as const;

/** Abandoned carts and unpaid orders (texts of the API and its e-mails). */
export const CART_REMINDER_MSG = {
  cartSubject: 'Your photos are still in your cart',
  cartIntro: (school: string) => `You chose these photos from ${school} but have not ordered them yet. Your cart is kept for you:`,
  cartAction: 'Open my cart',
  cartLinkNote: (days: number) => `The link opens your cart on any phone or computer for ${days} days. Prices are checked again when you open it.`,
  cartLine: (quantity: number, product: string, photo: string) => `${quantity} × ${product}, ${photo}`,
  unpaidSubject: (orderId: string) => `Your order ${orderId} is waiting for payment`,
  unpaidIntro: (orderId: string, school: string) => `Your order ${orderId} for photos from ${school} has not been paid yet. It is kept for you: pay it to have it made.`,
  unpaidAction: 'Pay for my order',
  unpaidTotal: (total: string) => `Total: ${total}`,
  unpaidIgnore: 'If you have paid already or do not want this order any more, ignore this e-mail.',
  unsubscribe: 'You receive this e-mail because you used our photo shop. Stop these e-mails:',
  unsubscribeLink: 'Unsubscribe',
  linkInvalid: 'This link to your cart is not valid. Please open the gallery again.',
  linkExpired: 'This link to your cart has expired. Please open the gallery again to choose your photos.',
} as const;

/** The PWA's screens for subscribing, confirming, unsubscribing and the staff's messages page. */
export const OUTREACH_SCREEN_MSG = {
  // Parents' screens (every text here is in the PWA's first download: kept short).
  offerOpen: 'Get e-mails',
  subscribedAs: (email: string) => `E-mails about these photos go to ${email}.`,
  emailLabel: 'E-mail address',
  subscribe: 'Subscribe',
  subscribing: 'Subscribing...',
  checkEmailTitle: 'Check your e-mail',
  checkEmailSentTo: (email: string) => `We sent the link to ${email}. Not there? Look in your spam folder.`,
  subscribeAgain: 'Use another address',
  failed: 'That did not work just now. Please try again.',
  rateLimited: 'Too many tries. Please wait a few minutes and try again.',
  confirmedTitle: 'Your e-mail address is confirmed',
  confirmedWhat: "You'll get an e-mail when the photos are online and a few reminders before ordering closes, at most one a day.",
  confirmedUnsubscribe: 'Each of these e-mails has a link to unsubscribe in one click.',
  invalidTitle: 'This link is invalid or has expired',
  invalidWhat: 'Subscribe again from the gallery to get a new link.',
  linkInvalid: 'This link is not valid. Open it again from our latest e-mail.',
  backToGallery: 'Back to the gallery',
  home: 'Go to the home page',
  unsubscribing: 'Unsubscribing...',
  unsubscribedTitle: "You're unsubscribed",
  unsubscribedFor: (email: string) => `${email} gets no more e-mails about photos, reminders or offers.`,
  orderEmailsStill: 'E-mails about your orders (confirmations, download links) still arrive.',
  tryAgain: 'Try Again',
  restoreHeading: 'Your saved cart',
  restoring: 'Bringing back your cart...',
  restoredTitle: 'Your cart is back',
  restoredLines: (count: number) => `${count} ${count === 1 ? 'item is' : 'items are'} back in your cart.`,
  droppedLines: (count: number) => `${count} could not come back (photo withdrawn or product no longer sold).`,
  nothingRestored: 'Nothing in this cart can be ordered any more.',
  restoreExpired: 'This cart link has expired, or its order was placed.',
  offer: CONSENT.offer,
} as const;


/**
 * Packages and the family discount (docs/packages-and-coupons.md): the price list's rules and what
 * a parent reads about them in the gallery and cart.
 */
export const PACKAGE_MSG = {
  packagesInvalid: 'Packages must be a list',
  tooManyPackages: 'A price list can have at most 50 packages',
  nameRequired: 'Package name is required',
  nameTooLong: 'Package name is too long',
  priceInvalid: 'Package price must be an amount in Pula with at most two decimals',
  itemsRequired: 'A package needs at least one product',
  tooManyItems: 'A package can hold at most 20 products',
  itemQuantity: 'Each product in a package needs a quantity from 1 to 10',
  itemProduct: 'Each product in a package must be one of this price list\'s products',
  productNotInList: (name: string) => `${name} is not a product of this price list`,
  maxPosesInvalid: 'Different photos allowed must be a whole number from 1 to 20',
  duplicateName: (name: string) => `Two packages are called ${name}`,
  siblingPercentInvalid: 'Sibling discount must be a whole percentage from 1 to 100',
  siblingMaxInvalid: 'Sibling discount needs the number of children it covers, from 2 to 20',
  /** Gallery and cart. */
  save: (amount: string) => `Save ${amount}`,
  includes: 'Includes',
  choosePhotos: 'Choose photos',
  onePhotoForAll: 'Use one photo for all',
  posesLimit: (count: number) => (count === 1 ? 'Choose 1 photo for this package' : `Choose up to ${count} different photos`),
  addPackage: 'Add package to cart',
  /** Server answers for an order line. */
  packageUnavailable: (name: string) => `${name} is no longer offered for this school. Please review your cart.`,
  photosCount: 'Choose one photo for the whole package, or one for each print and download in it',
  tooManyPoses: (count: number) => `This package can be filled with at most ${count} different ${count === 1 ? 'photo' : 'photos'}`,
  oneChild: "A package's photos must all be of one child",
  siblingLine: (percent: number) => `Sibling discount (${percent}% off from the second child)`,
  /** Price list editor (server answers). */
  maxPosesAboveItems: (count: number) => `Different photos allowed can be at most ${count}, the total quantity of the package's contents`,
  productAmbiguous: (name: string) => `Two products are called ${name}; give them different names to use one in a package`,
  /** Gallery and cart: the package cards and the fill dialog. */
  packagesTitle: 'Packages',
  packagesIntro: 'Several prints and downloads together, for less than single products.',
  contentsItem: (quantity: number, name: string) => `${quantity} x ${name}`,
  fillTitle: (name: string) => `Fill ${name}`,
  photoForAll: 'Photo for the whole package',
  noPhotos: 'Open a class to choose photos for a package.',
  photosOfChild: (name: string) => `Photos of ${name} and their class's group photos`,
  added: (name: string) => `${name} was added to your cart`,
  packagePhotos: (photos: string) => `Photos: ${photos}`,
  printsClosed: 'Print ordering has closed: packages with prints can no longer be ordered',
} as const;

/** Coupons: the code a parent enters in the cart, and why one is refused (docs/packages-and-coupons.md, "Coupons"). */
export const COUPON_MSG = {
  codeLabel: 'Coupon code',
  apply: 'Apply',
  remove: 'Remove coupon',
  applied: (code: string) => `Coupon ${code} applied`,
  discountLine: (code: string) => `Coupon ${code}`,
  /** Refusals, on the quote and on the order. */
  notValid: 'This coupon code is not valid for this school',
  notStarted: (date: string) => `This coupon can be used from ${date}`,
  expired: 'This coupon has expired',
  usedUp: 'This coupon has been used up',
  alreadyUsed: 'This coupon has already been used for this family',
  minimumOrder: (amount: string) => `This coupon needs an order of at least ${amount}`,
  nothingEligible: 'This coupon does not apply to packages. Add single prints or downloads to use it.',
  /** Staff API. */
  codeRequired: 'Coupon code is required',
  codeFormat: 'A coupon code has 3 to 40 letters, digits or dashes',
  codeTaken: 'Another coupon already has this code',
  kindInvalid: 'Coupon type must be percent or amount',
  percentInvalid: 'A percent coupon takes off 1 to 100 percent',
  amountInvalid: 'Coupon amount must be an amount in Pula with at most two decimals, above zero',
  minimumInvalid: 'Minimum order must be an amount in Pula with at most two decimals',
  datesInvalid: 'The coupon must end on or after the day it starts',
  maxUsesInvalid: 'Total uses must be a whole number of at least 1',
  oncePerInvalid: 'One use per must be order, email or child',
  couponNotFound: 'Coupon not found',
  schoolNotFound: 'School not found',
  deleted: 'Coupon deleted',
  excludesPackagesInvalid: 'Excludes packages must be true or false',
  idInvalid: 'A valid coupon id is required',
  schoolIdInvalid: 'A valid school id is required',
  dateInvalid: 'Dates must be YYYY-MM-DD',
  /** Cart (the parent's side). */
  placeholder: 'e.g. SPRING10',
  removed: 'Coupon removed',
} as const;

/**
 * A placed order's packages and discounts as a parent reads them: the confirmation e-mail, My Orders
 * and the order confirmation page (docs/packages-and-coupons.md, "Where packages and discounts show").
 */
export const ORDER_PACKAGE_MSG = {
  subtotal: 'Subtotal',
  siblingDiscount: 'Sibling discount',
  couponDiscount: (code: string) => `Coupon ${code}`,
  total: 'Total',
  /** An amount taken off, shown beside the discount's name. */
  minus: (amount: string) => `-${amount}`,
  /** A package's child, named when the order is for more than one. */
  forChild: (name: string) => `for ${name}`,
  contents: 'Contains',
  /** What the package's contents cost as single products, against what was paid. */
  saved: (amount: string) => `You saved ${amount} against single prints`,
  /** One item of a package: "1 x 15x20 Print, Photo 423". */
  contentLine: (quantity: number, productName: string, photo: string) => `${quantity} x ${productName}, ${photo}`,
} as const;

/** Season reports: what the API answers to a query it cannot read (docs/reports.md). */
export const REPORT_MSG = {
  fromInvalid: 'From must be a date (YYYY-MM-DD)',
  toInvalid: 'To must be a date (YYYY-MM-DD)',
  rangeReversed: 'To must be on or after From',
  rangeTooLong: 'Choose a range of at most two years',
  schoolIdInvalid: 'A valid school id is required',
  albumIdInvalid: 'A valid class id is required',
  periodInvalid: 'By must be day or week',
  schoolNotFound: 'School not found',
  albumNotFound: 'Class not found',
} as const;

/** GET /metrics on the main port without the right METRICS_TOKEN (docs/operations.md, "Metrics"). */
export const METRICS_MSG = {
  tokenRequired: 'A valid metrics token is required',
} as const;

/** A request that reaches a server while it stops (docs/operations.md, "Stopping cleanly"). */
export const SHUTDOWN_MSG = {
  restarting: 'The service is restarting. Please try again in a moment.',
} as const;
