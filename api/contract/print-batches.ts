import { z } from 'zod';
import { ORDER_STATUSES, type OrderStatus } from './constants';
import { id } from './fields';
import { PRINT_BATCH_MSG } from './messages';

/**
 * The way an order moves forward, from checkout to the child's hands. Cancelled is outside it:
 * nothing moves a cancelled order.
 */
export const ORDER_STATUS_FLOW = ['pending', 'paid', 'being_processed', 'at_printers', 'ready_for_delivery', 'delivered'] as const satisfies readonly OrderStatus[];

/** Where a status stands in the flow; -1 for cancelled. */
export const orderStatusRank = (status: OrderStatus): number => (ORDER_STATUS_FLOW as readonly OrderStatus[]).indexOf(status);

/** The statuses an order may leave to reach `target` without going backwards. */
export const statusesBefore = (target: OrderStatus): OrderStatus[] => ORDER_STATUS_FLOW.slice(0, Math.max(0, orderStatusRank(target)));

/** Paid orders not yet sent to the lab: what a new print batch takes. */
export const PRINT_READY_ORDER_STATUSES = ['paid', 'being_processed'] as const satisfies readonly OrderStatus[];

/** A batch has the status of its orders: at the lab, back and ready for the school, delivered. */
export const PRINT_BATCH_STATUSES = ['at_printers', 'ready_for_delivery', 'delivered'] as const satisfies readonly OrderStatus[];
export type PrintBatchStatus = (typeof PRINT_BATCH_STATUSES)[number];
export const PRINT_BATCH_NEXT_STATUSES = ['ready_for_delivery', 'delivered'] as const satisfies readonly PrintBatchStatus[];

/** The three files of a batch, as they appear in its URLs. */
export const PRINT_BATCH_FILES = ['files.zip', 'packing-list.pdf', 'labels.pdf'] as const;
export type PrintBatchFile = (typeof PRINT_BATCH_FILES)[number];

const FILE_KINDS: Record<PrintBatchFile, string> = { 'files.zip': 'files', 'packing-list.pdf': 'packing list', 'labels.pdf': 'labels' };

/** "Batch 12 files - Acacia Primary.zip": the name the server sends and the app saves under. */
export function printBatchFileName(batchId: number, schoolName: string, file: PrintBatchFile): string {
  const extension = file.slice(file.lastIndexOf('.') + 1);
  return `Batch ${batchId} ${FILE_KINDS[file]} - ${schoolName}.${extension}`.replace(/[/\\:*?"<>|\p{Cc}]/gu, '-');
}

export const printBatchCreateSchema = z.object({ schoolId: id(PRINT_BATCH_MSG.schoolRequired) });

export const printBatchStatusSchema = z.object({
  status: z.enum(PRINT_BATCH_NEXT_STATUSES, { error: PRINT_BATCH_MSG.statusInvalid }),
});

export const printBatchLinkRequestSchema = z.object({
  file: z.enum(PRINT_BATCH_FILES, { error: PRINT_BATCH_MSG.fileInvalid }),
});

export const printBatchSchema = z.object({
  id: z.number(),
  schoolId: z.number(),
  schoolName: z.string(),
  status: z.enum(PRINT_BATCH_STATUSES),
  /** Orders of the batch, cancelled ones left out. */
  orderCount: z.number(),
  /** Prints to produce: the quantities of the print lines of those orders. */
  printCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When a sold photo of the batch was moved or withheld after it was made (its packing list and labels changed), or null. */
  documentsChangedAt: z.string().nullable(),
});
export type PrintBatch = z.infer<typeof printBatchSchema>;

export const printBatchOrderSchema = z.object({
  id: z.string(),
  studentName: z.string(),
  customerName: z.string(),
  className: z.string(),
  orderStatus: z.enum(ORDER_STATUSES),
  items: z.array(
    z.object({
      id: z.number(),
      productName: z.string(),
      /** The package this print is part of (docs/packages-and-coupons.md), or null for a single product. */
      packageName: z.string().nullable(),
      quantity: z.number(),
      photoName: z.string(),
      photoOriginalNumber: z.string().nullable(),
      /** Whose print it is: the line's own child, else the order's student name. */
      studentName: z.string(),
    }),
  ),
});
export type PrintBatchOrder = z.infer<typeof printBatchOrderSchema>;

/**
 * Why a print line is left out of the batch (docs/access.md, "Prints follow the rules"): its photo
 * is gone (erased at the family's request, or deleted), its child may not be published, or it is no
 * longer the ordering child's (moved to another child, the tray, or a card).
 */
export const LEFT_OUT_REASONS = ['erased', 'do_not_publish', 'not_the_child'] as const;
export type LeftOutReason = (typeof LEFT_OUT_REASONS)[number];

export const leftOutLineSchema = z.object({
  orderId: z.string(),
  itemId: z.number(),
  studentName: z.string(),
  productName: z.string(),
  packageName: z.string().nullable(),
  quantity: z.number(),
  photoName: z.string(),
  reason: z.enum(LEFT_OUT_REASONS),
  /** The reason as staff read it. */
  reasonText: z.string(),
});
export type LeftOutLine = z.infer<typeof leftOutLineSchema>;

/** GET /api/print-batches/{id}: the orders in packing-list order, and what the ZIP will hold. */
export const printBatchDetailSchema = printBatchSchema.extend({
  orders: z.array(printBatchOrderSchema),
  /** Print lines of orders that are not cancelled which the batch does not print, for staff to check and refund. */
  leftOut: z.array(leftOutLineSchema),
  /** Originals the ZIP carries (one per print line of an order that is not cancelled). */
  fileCount: z.number(),
  /** Their total size in bytes: the ZIP is a little larger (headers, order sheet). */
  originalsBytes: z.number(),
});
export type PrintBatchDetail = z.infer<typeof printBatchDetailSchema>;

/** GET /api/print-batches/ready: per school, the paid orders with prints that no batch has taken. */
export const printReadinessSchema = z.object({
  schoolId: z.number(),
  schoolName: z.string(),
  orderCount: z.number(),
  printCount: z.number(),
});
export type PrintReadiness = z.infer<typeof printReadinessSchema>;

/** A short-lived URL a browser's download manager can fetch without the bearer header. */
export const printBatchLinkSchema = z.object({ url: z.string(), expiresAt: z.string() });
export type PrintBatchLink = z.infer<typeof printBatchLinkSchema>;
