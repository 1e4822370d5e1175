/** Refused requests and the routes' id checks (print batches' own texts are in print-batch-messages.ts): user-facing texts in the product's exact words (docs/architecture.md, "One contract, shared"). */
import { photoById, pricesFailed, pricesLoading, sessionExpiredTitle, tryAgain } from './first-visit-messages';
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
  sessionExpiredTitle,
  pricesLoading,
  pricesFailed,
  tryAgain,
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
  photoById,
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
