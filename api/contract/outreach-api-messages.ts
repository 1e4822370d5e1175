/** The API's answers and e-mails about guardians, the season timeline, the outbox and reminders: user-facing texts in the product's exact words (docs/architecture.md, "One contract, shared"). Apart from outreach-messages.ts so a parent's gallery, which offers the subscription, never downloads these. */
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
    guardian_phone_code: 'Code to confirm a phone (SMS)',
    photos_online: 'Photos are online',
    closing_reminder: 'Ordering closes soon',
    abandoned_cart: 'Still in your cart',
    unpaid_order: 'Order waiting for payment',
    order_paid_sms: 'Order paid (SMS)',
    transfer_awaiting_sms: 'Bank transfer awaited (SMS)',
    transfer_expired_sms: 'Bank transfer expired (SMS)',
    code_recovery: 'Code by SMS',
    prepaid_photos_online: 'Photos online: choose your package',
    prepaid_photos_online_sms: 'Photos online: choose your package (SMS)',
    package_filled: 'Package photos chosen by the studio',
    package_filled_sms: 'Package photos chosen by the studio (SMS)',
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
