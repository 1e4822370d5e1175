import { PRINT_BATCH_MSG, PRINT_BATCH_ROUTE_MSG } from '../../contract/messages';
import { ORDER_PACKAGE_STAFF_MSG } from '../../contract/staff-screen-messages';
import { compareNames } from '../../contract/format';
import type { LeftOutReason } from '../../contract/print-batches';
import type { BatchLineRecord, BatchOrderRecord } from './print-batches.repository';
import { createPathRegistry, photoNameOf, productFolder, zipFileName } from './zip-names';

export interface PlannedLine extends Omit<BatchLineRecord, 'studentName'> {
  /**
   * Whose print it is: the line's own child (the photo's student when the order was placed), else
   * the order's student name, so a two-child order's prints go into the right envelopes.
   */
  studentName: string;
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

/** A print line the batch does not print, with why (docs/access.md, "Prints follow the rules"). */
export interface LeftOutLine {
  orderId: string;
  line: PlannedLine;
  reason: LeftOutReason;
}

export interface BatchPlan {
  /** Every order, cancelled ones too, in packing order: class (as the gallery sorts), student, order. */
  orders: PlannedOrder[];
  /** What is printed and sent to the lab: the orders that are not cancelled. */
  active: PlannedOrder[];
  /**
   * What is packed and labelled: one envelope per child of each active order (an order for two
   * children makes two), in packing order.
   */
  envelopes: PlannedOrder[];
  /** Lines of active orders taken out of the ZIP, the packing list and the labels, for staff to check and refund. */
  leftOut: LeftOutLine[];
  fileCount: number;
  originalsBytes: number;
}

const packingOrder = (a: PlannedOrder, b: PlannedOrder): number =>
  compareNames(a.className, b.className) || compareNames(a.studentName, b.studentName) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Why a line may not be printed now, or null: its photo is gone (erased at the family's request or
 * deleted), its child is marked do not publish, or it is no longer the ordering child's (moved to
 * another child or the tray, or marked a card) - the rules of lineWithdrawn() in
 * api/src/orders/orders.presenter.ts that concern a print. An archived class still prints.
 */
export function leftOutReason(line: Pick<BatchLineRecord, 'photoNow' | 'lineStudentId'>): LeftOutReason | null {
  const now = line.photoNow;
  if (now === null) return 'erased';
  if (now.doNotPublish) return 'do_not_publish';
  if (now.card || now.inTray || now.studentId !== line.lineStudentId) return 'not_the_child';
  return null;
}

export function planBatch(records: BatchOrderRecord[]): BatchPlan {
  const orders = records
    .map((order) => ({
      id: order.id,
      studentName: order.studentName,
      customerName: order.customerName,
      className: order.lines.find((line) => line.className)?.className ?? PRINT_BATCH_MSG.noClass,
      orderStatus: order.orderStatus,
      lines: order.lines.map((line) => ({
        ...line,
        studentName: line.studentName ?? order.studentName,
        photoName: photoNameOf(line) ?? PRINT_BATCH_ROUTE_MSG.photoById(line.photoId),
        zipPath: '',
      })),
    }))
    .sort(packingOrder);
  const leftOut: LeftOutLine[] = [];
  for (const order of orders) {
    if (order.orderStatus === 'cancelled') continue;
    order.lines = order.lines.filter((line) => {
      const reason = leftOutReason(line);
      if (reason) leftOut.push({ orderId: order.id, line, reason });
      return reason === null;
    });
  }
  const active = orders.filter((order) => order.orderStatus !== 'cancelled');
  // Paths are handed out in packing order, so the same batch always gives the same names.
  const pathFor = createPathRegistry();
  let fileCount = 0;
  let originalsBytes = 0;
  for (const order of active) {
    for (const line of order.lines) {
      line.zipPath = pathFor(
        productFolder(line.productName),
        zipFileName({ orderId: order.id, studentName: line.studentName, quantity: line.quantity, originalName: line.originalName, storedName: line.storedName, originalNumber: line.originalNumber }),
      );
      fileCount += 1;
      originalsBytes += line.file?.size ?? 0;
    }
  }
  // An order with every line left out gets no envelope or label.
  const envelopes = active.filter((order) => order.lines.length > 0).flatMap(envelopesOf).sort(packingOrder);
  return { orders, active, envelopes, leftOut, fileCount, originalsBytes };
}

/** An order's lines split by child, each envelope going to the class of its child's first line. */
function envelopesOf(order: PlannedOrder): PlannedOrder[] {
  const byChild = new Map<string, PlannedLine[]>();
  for (const line of order.lines) byChild.set(line.studentName, [...(byChild.get(line.studentName) ?? []), line]);
  if (byChild.size <= 1) return [order];
  return [...byChild].map(([studentName, lines]) => ({
    ...order,
    studentName,
    className: lines.find((line) => line.className)?.className ?? order.className,
    lines,
  }));
}

/** How many distinct orders a list of envelopes holds. */
export const orderCountOf = (envelopes: PlannedOrder[]): number => new Set(envelopes.map((envelope) => envelope.id)).size;

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

/** "10x15 Print × 2 · IMG_0423.JPG"; a package's print says which package it fills: "Family Pack: 10x15 Print × 2 · IMG_0423.JPG". */
export const lineSummary = (line: PlannedLine): string => {
  const summary = `${line.productName} × ${line.quantity} · ${line.photoName}`;
  return line.packageName ? ORDER_PACKAGE_STAFF_MSG.labLine(line.packageName, summary) : summary;
};

/** The product as the order sheet names it: a package's print with its package ("Glossy Print (Family Pack)"). */
export const labProductName = (line: Pick<PlannedLine, 'productName' | 'packageName'>): string =>
  line.packageName ? ORDER_PACKAGE_STAFF_MSG.labProduct(line.productName, line.packageName) : line.productName;
