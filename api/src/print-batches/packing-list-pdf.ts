import { PRINT_BATCH_MSG } from '../../contract/messages';
import { SOLD_PHOTO_MSG } from '../../contract/withdrawn-photos';
import { createPdfDocument, pdfToBuffer, PDF_FONTS } from '../pdf/document';
import { byClass, lineSummary, orderCountOf, printCountOf, type PlannedOrder } from './batch-plan';

export interface PackingListInput {
  businessName: string;
  schoolName: string;
  batchId: number;
  /** The batch's date, already formatted for the reader. */
  date: string;
  /** When a sold photo of the batch was moved or withheld since it was made, formatted; null when unchanged. */
  changed?: string | null;
  /**
   * The envelopes to pack, in packing order (class, student, order): one per child of an order, so
   * a two-child order has a row under each child's class.
   */
  orders: PlannedOrder[];
}

const MARGIN = { top: 40, bottom: 48, left: 40, right: 40 };
const PAD = 4;
const GREY = '#555555';
const RULE = '#bbbbbb';
const CHANGED = '#b00020';

/**
 * The packing list the photographer sorts envelopes with and hands each class teacher: a page (or
 * more) per class, a row per order with a tick box, the header on every page and "Page n of m".
 */
export async function packingListPdf(input: PackingListInput): Promise<Buffer> {
  const title = `${PRINT_BATCH_MSG.packingListTitle} · ${input.schoolName} · ${PRINT_BATCH_MSG.batchNumber(input.batchId)}`;
  const doc = createPdfDocument({ title, author: input.businessName, bufferPages: true, margins: MARGIN });
  const width = doc.page.width - MARGIN.left - MARGIN.right;
  // The tick box and order number columns are as wide as their content, so an order number never
  // breaks across lines; names and items share the rest.
  const labelWidth = (text: string) => doc.font(PDF_FONTS.bold).fontSize(9).widthOfString(text) + 2 * PAD + 2;
  const packedWidth = labelWidth(PRINT_BATCH_MSG.columns.packed);
  doc.font(PDF_FONTS.regular).fontSize(9.5);
  const orderWidth = Math.max(labelWidth(PRINT_BATCH_MSG.columns.order), ...input.orders.map((order) => doc.widthOfString(order.id) + 2 * PAD + 2));
  const rest = width - packedWidth - orderWidth;
  const columns = [
    { key: 'packed', label: PRINT_BATCH_MSG.columns.packed, width: packedWidth },
    { key: 'student', label: PRINT_BATCH_MSG.columns.student, width: rest * 0.28 },
    { key: 'parent', label: PRINT_BATCH_MSG.columns.parent, width: rest * 0.26 },
    { key: 'order', label: PRINT_BATCH_MSG.columns.order, width: orderWidth },
    { key: 'items', label: PRINT_BATCH_MSG.columns.items, width: rest * 0.46 },
  ];
  const bottom = () => doc.page.height - MARGIN.bottom;

  const pageHeader = () => {
    doc.font(PDF_FONTS.bold).fontSize(15).fillColor('black').text(`${PRINT_BATCH_MSG.packingListTitle} · ${input.schoolName}`, MARGIN.left, MARGIN.top, { width });
    doc
      .font(PDF_FONTS.regular)
      .fontSize(10)
      .fillColor(GREY)
      .text(`${PRINT_BATCH_MSG.batchNumber(input.batchId)} · ${input.date} · ${PRINT_BATCH_MSG.batchTotals(orderCountOf(input.orders), printCountOf(input.orders))}`, { width });
    if (input.changed) doc.font(PDF_FONTS.bold).fontSize(10).fillColor(CHANGED).text(SOLD_PHOTO_MSG.documentsChangedPdf(input.changed), { width });
    doc.moveDown(0.8);
  };

  const tableHeader = () => {
    const y = doc.y;
    doc.font(PDF_FONTS.bold).fontSize(9).fillColor(GREY);
    let x = MARGIN.left;
    for (const column of columns) {
      doc.text(column.label, x + PAD, y, { width: column.width - 2 * PAD, lineBreak: false });
      x += column.width;
    }
    doc.y = y + 14;
    doc.moveTo(MARGIN.left, doc.y).lineTo(MARGIN.left + width, doc.y).strokeColor(RULE).lineWidth(0.8).stroke();
    doc.y += 3;
  };

  const classHeading = (text: string) => {
    doc.font(PDF_FONTS.bold).fontSize(13).fillColor('black').text(text, MARGIN.left, doc.y, { width });
    doc.moveDown(0.3);
  };

  const cells = (order: PlannedOrder) => ({
    packed: '',
    student: order.studentName,
    parent: order.customerName,
    order: order.id,
    items: order.lines.map(lineSummary).join('\n'),
  });

  const rowHeight = (order: PlannedOrder) => {
    doc.font(PDF_FONTS.regular).fontSize(9.5);
    const values = cells(order);
    const heights = columns.map((column) => doc.heightOfString(values[column.key as keyof typeof values] || ' ', { width: column.width - 2 * PAD }));
    return Math.max(18, ...heights) + 2 * PAD;
  };

  const row = (order: PlannedOrder) => {
    const y = doc.y;
    const height = rowHeight(order);
    const values = cells(order);
    doc.rect(MARGIN.left + PAD + 2, y + PAD, 11, 11).strokeColor('black').lineWidth(0.8).stroke();
    let x = MARGIN.left;
    doc.font(PDF_FONTS.regular).fontSize(9.5).fillColor('black');
    for (const column of columns) {
      const value = values[column.key as keyof typeof values];
      if (value) doc.text(value, x + PAD, y + PAD, { width: column.width - 2 * PAD });
      x += column.width;
    }
    doc.y = y + height;
    doc.moveTo(MARGIN.left, doc.y).lineTo(MARGIN.left + width, doc.y).strokeColor(RULE).lineWidth(0.5).stroke();
  };

  const groups = byClass(input.orders);
  if (groups.length === 0) pageHeader();
  groups.forEach((group, index) => {
    // Each class starts on its own page, so its pages can be handed to the class teacher.
    if (index > 0) doc.addPage();
    pageHeader();
    classHeading(PRINT_BATCH_MSG.classHeading(group.className, orderCountOf(group.orders)));
    tableHeader();
    for (const order of group.orders) {
      if (doc.y + rowHeight(order) > bottom()) {
        doc.addPage();
        pageHeader();
        classHeading(PRINT_BATCH_MSG.classContinued(group.className));
        tableHeader();
      }
      row(order);
    }
    if (doc.y + 40 > bottom()) {
      doc.addPage();
      pageHeader();
    }
    doc.font(PDF_FONTS.regular).fontSize(10).fillColor('black').text(PRINT_BATCH_MSG.receivedBy, MARGIN.left, doc.y + 24, { width });
  });

  const range = doc.bufferedPageRange();
  for (let page = 0; page < range.count; page++) {
    doc.switchToPage(range.start + page);
    // Writing inside the bottom margin would make pdfkit start a new page; lift it for the footer.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font(PDF_FONTS.regular)
      .fontSize(9)
      .fillColor(GREY)
      .text(PRINT_BATCH_MSG.pageOf(page + 1, range.count), MARGIN.left, doc.page.height - MARGIN.bottom + 18, { width, align: 'center', lineBreak: false });
    doc.page.margins.bottom = margin;
  }
  return pdfToBuffer(doc);
}
