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

/** The texts of each feature, in a file of their own (docs/architecture.md, "One contract, shared"). */
export * from './student-messages';
export * from './route-messages';
export * from './pwa-messages';
export * from './payment-messages';
export * from './help-messages';
export * from './outreach-messages';
export * from './package-messages';
