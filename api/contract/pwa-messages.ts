/** Words several PWA screens say, the offline notice and the photo dialog: user-facing texts in the product's exact words (docs/architecture.md, "One contract, shared"). */
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
