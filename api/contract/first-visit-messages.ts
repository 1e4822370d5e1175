/**
 * The few texts of the big shared text objects that a parent's first visit says: the school and
 * class password answers, the staff's "session expired" toast (the layout listens for it on every
 * screen), the photo dialog's price states and the names of the payment methods on how-it-works.
 * `MSG`, `HARDENING_MSG`, `STUDENT_MSG` and `PAYMENT_METHOD_MSG` take these very strings from here,
 * so the API and every other screen keep their imports, while the first screens import this file
 * and not those objects, each of which would come whole into the first download
 * (docs/performance.md, "Texts on the first screens").
 */
const invalidSchoolPassword = 'Invalid password. Please try again.';
const incorrectClassPassword = 'Incorrect password. Please try again.';
const sessionExpired = 'Your session has expired. Please log in again.';
const sessionExpiredTitle = 'Session Expired';
const schoolUsesCodes = "This school shares photos with each family through a private student code. Enter the code from your child's flyer.";
const pricesLoading = 'Loading products...';
const pricesFailed = 'We could not load the products and prices for this school.';
const tryAgain = 'Try Again';
/** A photo named by its id when it has no file name (photo-names.ts; the print batches' texts take it from here). */
export const photoById = (id: number | null) => `ID: ${id ?? '-'}`;

export const FIRST_VISIT_MSG = { invalidSchoolPassword, incorrectClassPassword, sessionExpired, sessionExpiredTitle, schoolUsesCodes, pricesLoading, pricesFailed, tryAgain } as const;
/** The same strings one by one, for the big objects that take them from here. */
export { invalidSchoolPassword, incorrectClassPassword, sessionExpired, sessionExpiredTitle, schoolUsesCodes, pricesLoading, pricesFailed, tryAgain };

/**
 * How the how-it-works page and the checkout name the enabled methods (one list, from
 * `GET /api/payment/methods`): "by card (…), mobile money (e-wallet) or bank transfer". The card
 * keeps the spec's wording of the how-it-works page ("Visa, Mastercard and American Express").
 */
export const PAYMENT_METHOD_NAMES = {
  card: 'card (Visa, Mastercard and American Express)',
  ewallet: 'mobile money (e-wallet)',
  bank_transfer: 'bank transfer',
} as const;

/** "by card (…), mobile money (e-wallet) or bank transfer"; empty for no methods. */
export const payByNames = (names: readonly string[]): string =>
  names.length === 0 ? '' : `by ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`}`;
