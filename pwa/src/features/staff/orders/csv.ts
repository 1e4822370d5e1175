/**
 * The order export of spec section 9: orders_{date}.csv with exactly these columns in this order,
 * written to RFC 4180 (CRLF rows, fields with commas, quotes or line breaks quoted, quotes doubled).
 */
import { ORDER_STATUS_LABELS } from '@contract/constants';
import { formatPula } from '@contract/money';
import type { Order } from '@contract/orders';

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
] as const;

/** YYYY-MM-DD in the photographer's own time zone (the day they see on screen). */
export function localDate(value: Date | string): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export const csvFileName = (now: Date = new Date()): string => `orders_${localDate(now)}.csv`;

/**
 * One field. Text a parent typed could start with = + - @ and run as a formula in a spreadsheet,
 * so such a field is prefixed with an apostrophe (OWASP CSV injection advice).
 */
export function csvField(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const itemSummary = (item: Order['items'][number]): string =>
  `${item.productName} x${item.quantity} (${item.photoOriginalName ?? item.photoName ?? item.photoFilename ?? `photo ${item.photoId ?? ''}`})`;

export function orderRow(order: Order): string[] {
  return [
    order.id,
    order.school.name,
    order.albumName ?? '',
    order.customerName,
    order.studentName,
    localDate(order.createdAt),
    order.items.map(itemSummary).join('; '),
    formatPula(order.totalAmount),
    order.testPayment ? `${order.paymentStatus} (test payment)` : order.paymentStatus,
    ORDER_STATUS_LABELS[order.orderStatus] ?? order.orderStatus,
  ];
}

export function ordersToCsv(orders: readonly Order[]): string {
  const rows = [[...CSV_COLUMNS], ...orders.map(orderRow)];
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** Saves the text as a download named `fileName` (an object URL, revoked once used). */
export function downloadCsv(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
