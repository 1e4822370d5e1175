/**
 * The common user-facing texts (docs/architecture.md, "One contract, shared"), re-exported by
 * messages.ts. Apart from it so that screens which say a few of them import this file and not the
 * hub, whose re-exports would bring every feature's texts into their download. A parent's first
 * screens import even less: the few of these they say come from first-visit-messages.ts
 * (docs/performance.md, "Texts on the first screens").
 */
import { incorrectClassPassword, invalidSchoolPassword, sessionExpired } from './first-visit-messages';
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
  invalidSchoolPassword,
  incorrectClassPassword,
  registrationClosed: 'Registration is closed. Ask an administrator to create your account.',
  emailTaken: 'An account with this email already exists',
  slugTaken: 'A school with this slug already exists',
  authRequired: 'Authentication required',
  sessionExpired,
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
