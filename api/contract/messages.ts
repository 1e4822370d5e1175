/** Every user-facing text the API answers with, in the product's exact words (docs/architecture.md, "One contract, shared"). */
export const MSG = {
  schoolNameRequired: 'School name is required',
  schoolSlugRequired: 'School slug is required',
  schoolSlugFormat: 'School slug may contain only lowercase letters, digits and hyphens',
  passwordMin: 'Password must be at least 6 characters',
  passwordTooLong: 'Password is too long',
  passwordRequired: 'Password is required',
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
} as const;

export const ORDER_MSG = {
  pricesChanged: 'Prices in your cart have changed. Please review your cart and try again.',
  productUnavailable: (name: string) => `${name} is not available for this school. Please review your cart.`,
  printsClosed: (name: string) => `Print ordering has closed for this school: ${name} can no longer be ordered. Only digital download options are available.`,
  photoNotInSchool: 'A photo in your cart does not belong to this school. Please review your cart.',
  orderNotFound: 'Order not found',
  alreadyPaid: 'This order has already been paid',
  orderCancelled: 'This order has been cancelled',
  paymentUnavailable: 'Unable to process payment',
  downloadNotReady: 'This download is available once the order is paid',
  downloadInvalid: 'This download link is invalid or has expired. Open My Orders for a new link.',
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
  trayIntro: 'These photos could not be matched to a child. The card photos around them show who was photographed; tap a name to assign.',
  groupPhoto: 'Group photo',
  assignTo: 'Assign to...',
  cardLabel: 'Card',
  cardKnown: (name: string) => `Card: ${name}`,
  cardUnknown: 'Card: code not in this class',
  cardOtherClass: (name: string, where: string) => `Card: ${name} (${where})`,
  assigned: (name: string) => `Assigned to ${name}`,
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
  offlineTitle: 'You are offline',
  classCreatedTitle: 'Class Created',
  createClassFailed: 'Failed to create class',
  updateStudentFailed: 'Failed to update the student',
  assignPhotosFailed: 'Failed to assign photos',
  resetFailed: 'Failed to reset password. The link may be expired or invalid.',
  working: 'Working...',
} as const;
