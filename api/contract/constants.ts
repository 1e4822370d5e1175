/**
 * Business constants shared by the API and the PWA. One place for every limit, status and
 * built-in product (docs/statuses.md, docs/money-and-pricing.md).
 */

export const CURRENCY = 'BWP' as const;
export const CURRENCY_PREFIX = 'P' as const;
export const COUNTRY = 'BWA' as const;

export const QUANTITY_MIN = 1;
export const QUANTITY_MAX = 10;

export const PASSWORD_MIN_LENGTH = 6;
/** Upper bound so a hash function is never fed megabytes. */
export const PASSWORD_MAX_LENGTH = 256;

export const UPLOAD_BATCH_SIZE = 10;
export const UPLOAD_MAX_FILES = 500;
export const UPLOAD_MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Decompression-bomb guard: 100 megapixels, counted over all frames of a GIF. */
export const UPLOAD_MAX_PIXELS = 100_000_000;
export const UPLOAD_MAX_GIF_FRAMES = 50;
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif'] as const;
export type AcceptedImageType = (typeof ACCEPTED_IMAGE_TYPES)[number];

/**
 * Matching at the shoot: an upload session continues for the same class while the photographer
 * keeps adding photos within this long; capture-order numbers stay below CAPTURE_SEQ_MAX.
 */
export const UPLOAD_SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const CAPTURE_SEQ_MAX = 1_000_000;

export const THUMBNAIL_MAX_SIDE = 400;
/**
 * The grid's thumbnail on a phone or with Save-Data: two columns of about 180 CSS px, sharp enough
 * at a phone's 1.5-2x pixel density and a third lighter than the full thumbnail.
 */
export const SMALL_THUMBNAIL_MAX_SIDE = 320;
export const PREVIEW_MAX_SIDE = 1280;
/** The watermark's white lettering (docs/images.md, "The watermark"). */
export const WATERMARK_OPACITY = 0.3;
/** The soft black shadow set off under the lettering, which makes it read on light and mid-tone photos. */
export const WATERMARK_SHADOW_OPACITY = 0.3;

export const CLIENT_PREVIEW_MAX_SIDE = 200;
export const CLIENT_PREVIEW_JPEG_QUALITY = 0.85;

export const UPLOAD_PROGRESS_START = 5;
export const UPLOAD_PROGRESS_SPAN_END = 95;
export const UPLOAD_RELOAD_DELAY_MS = 1500;

export const ORDER_POLL_INTERVAL_MS = 3000;
export const RESET_LINK_VALIDITY_MS = 60 * 60 * 1000;
/** The first "set your password" link of an account made at checkout: a parent may read the e-mail days later. */
export const SET_PASSWORD_LINK_VALIDITY_MS = 7 * 24 * 60 * 60 * 1000;
export const RESET_REDIRECT_DELAY_MS = 2000;

export const PRICE_LIST_CARD_ITEMS = 3;
export const RECOVERY_LIST_ITEMS = 10;
export const RESTORATION_LIST_ITEMS = 20;
export const ORDER_ROW_ITEMS = 2;

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;

export const STAFF_ROLES = ['photographer', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export const DEFAULT_STAFF_ROLE: StaffRole = 'photographer';

/** Server order statuses, with the staff screen's labels (docs/statuses.md, "Order statuses"). */
export const ORDER_STATUSES = [
  'pending',
  'paid',
  'being_processed',
  'at_printers',
  'ready_for_delivery',
  'delivered',
  'cancelled',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Pending Payment',
  paid: 'Payment Received',
  being_processed: 'Being Processed',
  at_printers: 'At Printers',
  ready_for_delivery: 'Ready For Delivery',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};
/** Orders the order page counts as "processing" (docs/statuses.md, "Counts on the staff screens"). */
export const PROCESSING_ORDER_STATUSES: readonly OrderStatus[] = ['paid', 'being_processed', 'at_printers'];
/** The dashboard's Active Orders count the same orders as the order page's processing count. */
export const ACTIVE_ORDER_STATUSES: readonly OrderStatus[] = PROCESSING_ORDER_STATUSES;

export const PAYMENT_STATUSES = ['pending', 'completed', 'failed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Built-in products when a school has no price list (docs/money-and-pricing.md). Prices in thebe. */
/**
 * What a product is (docs/money-and-pricing.md, "Print and digital products"): a print goes to the
 * lab and is no longer sold after the closing date; a digital copy is a download.
 */
export const PRODUCT_KINDS = ['print', 'digital'] as const;
export type ProductKind = (typeof PRODUCT_KINDS)[number];
export const PRODUCT_KIND_LABELS: Record<ProductKind, string> = { print: 'Print (goes to the lab)', digital: 'Digital (a download)' };

export const FALLBACK_PRODUCTS = [
  { id: 'print_10x15', name: '10x15 Print', priceThebe: 2500, kind: 'print', size: '10x15 cm' },
  { id: 'print_15x20', name: '15x20 Print', priceThebe: 4000, kind: 'print', size: '15x20 cm' },
  { id: 'digital', name: 'Digital Copy', priceThebe: 1500, kind: 'digital', size: null },
  { id: 'frame_small', name: 'Small Frame', priceThebe: 3500, kind: 'print', size: null },
  { id: 'frame_large', name: 'Large Frame', priceThebe: 5500, kind: 'print', size: null },
  { id: 'canvas_small', name: 'Small Canvas', priceThebe: 8000, kind: 'print', size: null },
  { id: 'canvas_large', name: 'Large Canvas', priceThebe: 12000, kind: 'print', size: null },
] as const satisfies readonly { id: string; name: string; priceThebe: number; kind: ProductKind; size: string | null }[];

export const DEFAULT_PRODUCT_DESCRIPTION = 'No description available';

/** True when the school's closing date (YYYY-MM-DD, end of that day) has passed. */
export function isOrderingClosed(closingDate: string | null | undefined, now: Date = new Date()): boolean {
  if (!closingDate) return false;
  const end = new Date(`${closingDate}T23:59:59.999Z`);
  return !Number.isNaN(end.getTime()) && end.getTime() < now.getTime();
}

/**
 * A class (album) is a draft until staff publish it; families see nothing of a draft
 * (docs/access.md, "Draft and published classes").
 */
export const ALBUM_STATUSES = ['draft', 'published'] as const;
export type AlbumStatus = (typeof ALBUM_STATUSES)[number];

/** A new class in a student-codes school waits for review; in a school-password school it is live at once (the spec's flow). */
export const NEW_ALBUM_STATUS = { student_codes: 'draft', school_password: 'published' } as const satisfies Record<string, AlbumStatus>;

/** The answer to an upload batch whose good files were stored and some files refused, each named in `rejected` (docs/images.md, "One bad file refuses one file"). */
export const UPLOAD_PARTIAL_STATUS = 207;
