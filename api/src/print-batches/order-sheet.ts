import { csvRows } from '../../contract/csv';
import { PRINT_BATCH_MSG } from '../../contract/messages';
import { labProductName, type PlannedLine, type PlannedOrder } from './batch-plan';

/** Spreadsheets guess the encoding of a CSV; the byte order mark tells them UTF-8, so names survive. */
const UTF8_BOM = '\uFEFF';

/**
 * order-sheet.csv: one row per print line, in packing order, pointing at its file in the ZIP (empty
 * when the original is missing from storage). Each row names its own child and class, so a
 * two-child order's prints are told apart.
 */
export function orderSheet(schoolName: string, orders: PlannedOrder[], missing: ReadonlySet<PlannedLine>): string {
  const rows = orders.flatMap((order) =>
    order.lines.map((line) => [
      order.id,
      schoolName,
      line.className ?? order.className,
      line.studentName,
      labProductName(line),
      line.quantity,
      missing.has(line) ? '' : line.zipPath,
      line.originalNumber ?? '',
      line.originalName ?? '',
    ]),
  );
  return UTF8_BOM + csvRows([[...PRINT_BATCH_MSG.orderSheetColumns], ...rows]);
}

/** MISSING.txt: what the lab will not find in the ZIP, and how the photographer puts it right. */
export function missingList(orders: PlannedOrder[], missing: ReadonlySet<PlannedLine>): string {
  const lines = [PRINT_BATCH_MSG.missingTitle, '', PRINT_BATCH_MSG.missingIntro, ''];
  for (const order of orders) {
    for (const line of order.lines) {
      if (!missing.has(line)) continue;
      const number = line.originalNumber ? ` (${line.originalNumber})` : '';
      lines.push(`${PRINT_BATCH_MSG.orderNumber(order.id)} · ${line.studentName} · ${line.className ?? order.className} · ${labProductName(line)} × ${line.quantity} · ${line.photoName}${number}`);
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
