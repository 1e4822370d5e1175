/**
 * The contract's texts in one place: the common ones (common-messages.ts), the API's own below, and
 * one file per feature, all re-exported (docs/architecture.md, "One contract, shared"). The API and
 * the staff screens import from here; a parent's first screens import the files themselves
 * (docs/performance.md, "Texts on the first screens").
 */
export * from './common-messages';

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
export * from './student-review-messages';
export * from './route-messages';
export * from './print-batch-messages';
export * from './pwa-messages';
export * from './payment-messages';
export * from './cart-messages';
export * from './help-messages';
export * from './help-page-messages';
export * from './outreach-messages';
export * from './outreach-api-messages';
export * from './package-messages';
export * from './coupon-messages';
