import { PRINT_BATCH_MSG } from '../../contract/messages';
import { SOLD_PHOTO_MSG } from '../../contract/withdrawn-photos';
import { createPdfDocument, pdfToBuffer, PDF_FONTS } from '../pdf/document';
import { lineSummary, type PlannedOrder } from './batch-plan';

export interface LabelsInput {
  businessName: string;
  schoolName: string;
  batchId: number;
  /** When a sold photo of the batch was moved or withheld since it was made, formatted; null when unchanged. */
  changed?: string | null;
  /** The envelopes (one per child of an order), in packing order, one label each. */
  orders: PlannedOrder[];
}

const MM = 72 / 25.4;

/**
 * The common A4 sheet of 14 labels (2 × 7, 99.1 × 38.1 mm, as Avery L7163 and its equivalents):
 * 15.15 mm top margin, 4.65 mm side margins, 2.5 mm between the columns, none between the rows.
 * The labels fill the sheet: 7 rows of 38.1 mm and two 15.15 mm margins make A4's 297 mm.
 */
export const LABEL_SHEET = {
  name: PRINT_BATCH_MSG.labelStock,
  columns: 2,
  rows: 7,
  width: 99.1 * MM,
  height: 38.1 * MM,
  top: 15.15 * MM,
  left: 4.65 * MM,
  columnPitch: 101.6 * MM,
  rowPitch: 38.1 * MM,
} as const;

/** A hairline, light enough not to show much if a printer shifts it onto the next label. */
const OUTLINE = { colour: '#9a9a9a', width: 0.4 };

/** Printers shift a little; text keeps clear of the label's edges. */
const INSET = { x: 4 * MM, y: 3 * MM };
const ITEM_LINE = 9;

/** The outline of every label of the sheet, used or not: on plain paper the sheet can be cut along them. */
function outlineSheet(doc: PDFKit.PDFDocument): void {
  doc.save().strokeColor(OUTLINE.colour).lineWidth(OUTLINE.width);
  for (let slot = 0; slot < LABEL_SHEET.columns * LABEL_SHEET.rows; slot++) {
    const x = LABEL_SHEET.left + (slot % LABEL_SHEET.columns) * LABEL_SHEET.columnPitch;
    const y = LABEL_SHEET.top + Math.floor(slot / LABEL_SHEET.columns) * LABEL_SHEET.rowPitch;
    doc.rect(x, y, LABEL_SHEET.width, LABEL_SHEET.height).stroke();
  }
  doc.restore();
}

/**
 * One label per envelope (an order for two children has two), in packing-list order, for the
 * photographer to stick on each envelope; laid out for LABEL_SHEET, named in the PDF's Subject.
 */
export async function labelsPdf(input: LabelsInput): Promise<Buffer> {
  const title = `${PRINT_BATCH_MSG.labelsTitle} · ${input.schoolName} · ${PRINT_BATCH_MSG.batchNumber(input.batchId)}`;
  const doc = createPdfDocument({ title, subject: LABEL_SHEET.name, author: input.businessName, margins: { top: 0, bottom: 0, left: 0, right: 0 } });
  const perPage = LABEL_SHEET.columns * LABEL_SHEET.rows;
  // A changed batch says so in the sheet's top margin, above the labels, on every page.
  const changedNote = () => {
    if (!input.changed) return;
    doc.fillColor('#b00020').font(PDF_FONTS.bold).fontSize(8);
    doc.text(SOLD_PHOTO_MSG.documentsChangedPdf(input.changed), LABEL_SHEET.left, 4 * MM, { width: LABEL_SHEET.columns * LABEL_SHEET.columnPitch, height: 10, ellipsis: true, lineBreak: false });
  };
  outlineSheet(doc);
  changedNote();
  input.orders.forEach((order, index) => {
    if (index > 0 && index % perPage === 0) {
      doc.addPage();
      outlineSheet(doc);
      changedNote();
    }
    const slot = index % perPage;
    const x = LABEL_SHEET.left + (slot % LABEL_SHEET.columns) * LABEL_SHEET.columnPitch + INSET.x;
    const top = LABEL_SHEET.top + Math.floor(slot / LABEL_SHEET.columns) * LABEL_SHEET.rowPitch + INSET.y;
    const width = LABEL_SHEET.width - 2 * INSET.x;
    const oneLine = (text: string, y: number, height: number) => doc.text(text, x, y, { width, height, ellipsis: true, lineBreak: true });

    doc.fillColor('black').font(PDF_FONTS.bold).fontSize(11.5);
    oneLine(order.studentName, top, 14);
    doc.font(PDF_FONTS.regular).fontSize(8.5);
    oneLine(`${order.className} · ${input.schoolName}`, top + 15, 11);
    doc.font(PDF_FONTS.bold).fontSize(8.5);
    oneLine(PRINT_BATCH_MSG.orderNumber(order.id), top + 26, 11);

    const itemsTop = top + 38;
    const room = Math.floor((LABEL_SHEET.height - 2 * INSET.y - 38) / ITEM_LINE);
    const shown = order.lines.length > room ? order.lines.slice(0, room - 1) : order.lines;
    const texts = shown.map(lineSummary);
    if (shown.length < order.lines.length) texts.push(PRINT_BATCH_MSG.moreItems(order.lines.length - shown.length));
    doc.font(PDF_FONTS.regular).fontSize(7.5);
    texts.forEach((text, line) => oneLine(text, itemsTop + line * ITEM_LINE, ITEM_LINE));
  });
  return pdfToBuffer(doc);
}
