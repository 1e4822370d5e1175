/**
 * The order export: orders_{date}.csv with exactly these columns in this order (the spec's ten,
 * then "Payment Method", docs/payments.md "Payment methods"),
 * written to RFC 4180 (CRLF rows, fields with commas, quotes or line breaks quoted, quotes doubled).
 * Total Amount is a plain number in pula ("65.00", no "P") so that a spreadsheet can sum the column.
 */
import { ORDER_STATUS_LABELS } from '@contract/constants';
import { PAYMENT_METHOD_MSG } from '@contract/messages';
import { decimalToThebe, formatPula, thebeToDecimal } from '@contract/money';
import { orderEntries, packageChild } from '@contract/order-lines';
import { ORDER_PACKAGE_STAFF_MSG } from '@contract/staff-screen-messages';
import type { Order } from '@contract/orders';
import { csvField, csvRows } from '@contract/csv';
import { saveBlob } from './save-file';
import { itemPhotoLabel } from '@contract/photo-names';
import { csvPaymentMethod } from './payment-method';
import { prepaidStaffLabel } from '@contract/prepaid';

export const CSV_COLUMNS = [
  'Order Number',
  'School Name',
  'Class/Album',
  'Customer Name',
  'Student Name',
  'Date',
  'Order Details',
  'Total Amount',
  'Payment Status',
  'Order Status',
  PAYMENT_METHOD_MSG.csvColumn,
] as const;

/** YYYY-MM-DD in the photographer's own time zone (the day they see on screen). */
export function localDate(value: Date | string): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export const csvFileName = (now: Date = new Date()): string => `orders_${localDate(now)}.csv`;

export { csvField };

/** A line; in an order for several children, with whose print it is. */
export const itemSummary = (item: Order['items'][number], orderStudentName?: string): string =>
  `${item.productName} x${item.quantity} (${itemPhotoLabel(item)}${orderStudentName !== undefined && item.studentName !== orderStudentName ? `, ${item.studentName}` : ''})`;

/**
 * Order Details: each line the parent chose, a package as one entry with its price and its contents
 * in brackets, then the discounts, each an entry of its own (docs/packages-and-coupons.md, "Where
 * packages and discounts show").
 */
/**
 * A package ordered before picture day says where its photos stand (docs/prepaid.md, "The books"):
 * without photos its contents read "Prepaid: photos to choose after picture day" (or the closing
 * date's flag); once filled, who chose follows its contents.
 */
const prepaidNote = (pkg: Order['packages'][number]): string => {
  const label = prepaidStaffLabel(pkg);
  return label === null ? '' : ` [${label}]`;
};

export function orderDetails(order: Order): string {
  const entries = orderEntries(order).map((entry) =>
    entry.kind === 'item'
      ? itemSummary(entry.item, order.studentName)
      : ORDER_PACKAGE_STAFF_MSG.csvPackage(
          entry.pkg.name,
          entry.pkg.quantity,
          formatPula(entry.pkg.totalPrice),
          packageChild(entry.pkg, order),
          entry.contents.length === 0 && prepaidStaffLabel(entry.pkg) !== null
            ? [prepaidStaffLabel(entry.pkg) ?? '']
            : entry.contents.map((item) => `${item.productName} x${item.quantity} (${itemPhotoLabel(item)})`),
        ) + (entry.contents.length > 0 ? prepaidNote(entry.pkg) : ''),
  );
  const discounts = [
    ...(Number(order.siblingDiscount) > 0 ? [ORDER_PACKAGE_STAFF_MSG.siblingLine(formatPula(order.siblingDiscount))] : []),
    ...(order.couponCode !== null ? [ORDER_PACKAGE_STAFF_MSG.couponLine(order.couponCode, formatPula(order.couponDiscount))] : []),
  ];
  return [...entries, ...discounts].join('; ');
}

export function orderRow(order: Order): string[] {
  return [
    order.id,
    order.school.name,
    order.albumName ?? '',
    order.customerName,
    order.studentName,
    localDate(order.createdAt),
    orderDetails(order),
    thebeToDecimal(decimalToThebe(order.totalAmount) ?? 0),
    order.testPayment ? `${order.paymentStatus} (test payment)` : order.paymentStatus,
    ORDER_STATUS_LABELS[order.orderStatus] ?? order.orderStatus,
    csvPaymentMethod(order),
  ];
}

export function ordersToCsv(orders: readonly Order[]): string {
  return csvRows([[...CSV_COLUMNS], ...orders.map(orderRow)]);
}

/** Saves the text as a download named `fileName`. */
export function downloadCsv(text: string, fileName: string): void {
  saveBlob(new Blob([text], { type: 'text/csv;charset=utf-8' }), fileName);
}
