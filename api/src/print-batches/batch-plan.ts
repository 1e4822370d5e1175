import { PRINT_BATCH_MSG, PRINT_BATCH_ROUTE_MSG } from '../../contract/messages';
import { compareNames } from '../../contract/format';
import type { BatchLineRecord, BatchOrderRecord } from './print-batches.repository';
import { createPathRegistry, photoNameOf, productFolder, zipFileName } from './zip-names';

export interface PlannedLine extends BatchLineRecord {
  /** What staff and the lab call the photo: its original name, else the stored one, else its id. */
  photoName: string;
  /** Where its original goes in the ZIP (an original missing from storage is listed instead). */
  zipPath: string;
}

export interface PlannedOrder {
  id: string;
  studentName: string;
  customerName: string;
  /** The class the envelope goes to: the class of the order's first print line. */
  className: string;
  orderStatus: BatchOrderRecord['orderStatus'];
  lines: PlannedLine[];
}

export interface BatchPlan {
  /** Every order, cancelled ones too, in packing order: class (as the gallery sorts), student, order. */
  orders: PlannedOrder[];
  /** What is printed, packed and labelled: the orders that are not cancelled. */
  active: PlannedOrder[];
  fileCount: number;
  originalsBytes: number;
}

const packingOrder = (a: PlannedOrder, b: PlannedOrder): number =>
  compareNames(a.className, b.className) || compareNames(a.studentName, b.studentName) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function planBatch(records: BatchOrderRecord[]): BatchPlan {
  const orders = records
    .map((order) => ({
      id: order.id,
      studentName: order.studentName,
      customerName: order.customerName,
      className: order.lines.find((line) => line.className)?.className ?? PRINT_BATCH_MSG.noClass,
      orderStatus: order.orderStatus,
      lines: order.lines.map((line) => ({ ...line, photoName: photoNameOf(line) ?? PRINT_BATCH_ROUTE_MSG.photoById(line.photoId), zipPath: '' })),
    }))
    .sort(packingOrder);
  const active = orders.filter((order) => order.orderStatus !== 'cancelled');
  // Paths are handed out in packing order, so the same batch always gives the same names.
  const pathFor = createPathRegistry();
  let fileCount = 0;
  let originalsBytes = 0;
  for (const order of active) {
    for (const line of order.lines) {
      line.zipPath = pathFor(
        productFolder(line.productName),
        zipFileName({ orderId: order.id, studentName: order.studentName, quantity: line.quantity, originalName: line.originalName, storedName: line.storedName, originalNumber: line.originalNumber }),
      );
      fileCount += 1;
      originalsBytes += line.file?.size ?? 0;
    }
  }
  return { orders, active, fileCount, originalsBytes };
}

/** Consecutive orders of one class (the plan is sorted by class first). */
export function byClass(orders: PlannedOrder[]): { className: string; orders: PlannedOrder[] }[] {
  const groups: { className: string; orders: PlannedOrder[] }[] = [];
  for (const order of orders) {
    const last = groups.at(-1);
    if (last && compareNames(last.className, order.className) === 0) last.orders.push(order);
    else groups.push({ className: order.className, orders: [order] });
  }
  return groups;
}

export const printCountOf = (orders: PlannedOrder[]): number => orders.reduce((sum, order) => sum + order.lines.reduce((n, line) => n + line.quantity, 0), 0);

/** "10x15 Print × 2 · IMG_0423.JPG" */
export const lineSummary = (line: PlannedLine): string => `${line.productName} × ${line.quantity} · ${line.photoName}`;
