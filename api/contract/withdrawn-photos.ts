import { z } from 'zod';

/**
 * A withdrawn photo is never charged, and a sold photo is not moved without a warning
 * (docs/payments.md, "Withdrawn photos are never charged"; docs/access.md, "Moving a sold photo").
 * Families' and staff's words, and the answers' shapes.
 */

/** A line of an order that cannot be paid because its photo is withdrawn (the 409 `ORDER_PHOTOS_WITHDRAWN` answer names them). */
export const withdrawnOrderLineSchema = z.object({
  itemId: z.number(),
  /** The name the family knows the photo by ("Photo 423"). */
  photoName: z.string(),
  productName: z.string(),
});
export type WithdrawnOrderLine = z.infer<typeof withdrawnOrderLineSchema>;

/** 409 `ORDER_PHOTOS_WITHDRAWN` from `POST /api/payment/initiate`. */
export const orderPhotosWithdrawnSchema = z.object({
  code: z.literal('ORDER_PHOTOS_WITHDRAWN'),
  message: z.string(),
  lines: z.array(withdrawnOrderLineSchema),
});

/**
 * 409 `PHOTO_SOLD` from moving or withholding photos (`PUT /api/photos/student`, `/photos/tray`,
 * `/photos/card`; marking their child do not publish, `PATCH /api/students/{id}`; putting their
 * class back to draft, `PATCH /api/albums/{id}`) without `confirm: true`: the paid orders that
 * would lose them and the print batches that already took them to the lab. Nothing was changed.
 */
export const photoSoldConflictSchema = z.object({
  code: z.literal('PHOTO_SOLD'),
  message: z.string(),
  /** The paid orders whose family would see these photos as withdrawn. */
  orders: z.array(z.string()),
  /** The print batches (ids, "batch #N") that already have these photos for the lab. */
  batches: z.array(z.number()),
  photoIds: z.array(z.number()),
});
export type PhotoSoldConflict = z.infer<typeof photoSoldConflictSchema>;

/** What a `PHOTO_SOLD` warning is about: the photos asked about, a child marked do not publish, a class back to draft. */
export type SoldPhotosOf = 'photos' | 'child' | 'class';

/** The field a move or withhold request adds once staff have read the warning. */
export const confirmSoldField = z.boolean({ error: 'Confirm must be true or false' }).optional();

const list = (items: readonly (string | number)[]) => items.join(', ');
const batchList = (batches: readonly number[]) => batches.map((id) => `#${id}`).join(', ');

export const WITHDRAWN_MSG = {
  /** To the family, when paying: the lines named. */
  orderPhotosWithdrawn: (lines: readonly string[]) =>
    `Some photos in this order are no longer available, so it cannot be paid: ${list(lines)}. Nothing was charged. Please remove them from your cart and order again.`,
  /** A line as it is named in that answer: "Photo 423 (10x15 Print)". */
  lineName: (photoName: string, productName: string) => `${photoName} (${productName})`,
  /** The confirmation e-mail, when the payment was approved while lines were withdrawn. */
  notDeliveredTitle: 'Not delivered',
  notDeliveredIntro: 'These photos are no longer available and will not be delivered. The school photographer will refund them:',
  notDeliveredLine: (quantity: number, productName: string, photoName: string) => `${quantity} x ${productName}, ${photoName}`,
  /** To the family, cancelling an order whose payment the gateway received and may still settle. */
  cancelWhileSettling:
    'Your payment for this order has been received by PayGate and may still go through, so the order cannot be cancelled now. If the payment does not go through, you can cancel the order then.',
} as const;

/** Staff's words: the warning before moving or withholding a sold photo, and the batch's changed documents. */
export const SOLD_PHOTO_MSG = {
  /**
   * The 409 `PHOTO_SOLD` message, also the confirmation dialog's text. `of` says what is withheld:
   * the photos asked about (a move, the tray, a card), a child marked do not publish, or a class put
   * back to draft.
   */
  warning: (orders: readonly string[], batches: readonly number[], of: SoldPhotosOf = 'photos') =>
    of === 'photos'
      ? [
          `A family paid for ${orders.length === 1 ? 'this photo' : 'these photos'} (order ${list(orders)}).`,
          'If you go on, the family will see it as "withdrawn" and you will need to refund it.',
          ...(batches.length > 0
            ? [`It is already in ${batches.length === 1 ? 'batch' : 'batches'} ${batchList(batches)} for the lab: the packing list and labels will be marked as changed, so print them again.`]
            : []),
        ].join(' ')
      : [
          `${orders.length === 1 ? 'A family' : 'Families'} paid for photos of this ${of === 'child' ? 'child' : 'class'} (${orders.length === 1 ? 'order' : 'orders'} ${list(orders)}).`,
          `If you go on, ${orders.length === 1 ? 'the family' : 'those families'} will see them as "withdrawn" and you will need to refund them.`,
          ...(batches.length > 0
            ? [`Some are already in ${batches.length === 1 ? 'batch' : 'batches'} ${batchList(batches)} for the lab: the packing list and labels will be marked as changed, so print them again.`]
            : []),
        ].join(' '),
  /** "already in batch #N for the lab", on its own (the dialog's second line). */
  inBatch: (batches: readonly number[]) => `Already in ${batches.length === 1 ? 'batch' : 'batches'} ${batchList(batches)} for the lab.`,
  dialogTitle: 'This photo was paid for',
  confirmMove: 'Move anyway',
  confirmTray: 'Withdraw anyway',
  /** Marking a child do not publish, and putting a class back to draft, when families paid for its photos. */
  confirmHide: 'Hide anyway',
  confirmDraft: 'Back to draft anyway',
  keep: 'Keep it',
  /** A batch whose packing list and labels changed after they were made. */
  documentsChanged: (when: string) => `Changed ${when}: photos were withdrawn after this batch was made. Print the packing list and labels again.`,
  /** On the PDFs themselves. */
  documentsChangedPdf: (when: string) => `CHANGED ${when}: photos withdrawn since this batch was made. This copy replaces earlier ones.`,
  /** The staff order's flag: a payment approved while lines were withdrawn. */
  paidWithWithdrawn: (lines: number) => (lines === 1 ? 'Paid for a withdrawn photo: refund it' : `Paid for ${lines} withdrawn photos: refund them`),
  paidWithWithdrawnHelp:
    'The payment was approved after photos of this order were withdrawn. Those lines are not delivered: refund them in the PayGate back office (search for the order number).',
} as const;
