import { createRequire } from 'node:module';
import path from 'node:path';
import QRCode from 'qrcode';
import { isOrderingClosed } from '../../contract/constants';
import { formatDate } from '../../contract/format';
import { STUDENT_MSG } from '../../contract/messages';
import { CODE_RECOVERY_MSG } from '../../contract/code-recovery';
import { FLYER_COLUMNS, FLYER_ROWS, formatStudentCode } from '../../contract/student-codes';
import { PDF_FONTS, createPdfDocument, pdfToBuffer } from '../pdf/document';

const require = createRequire(import.meta.url);
/** A monospaced face for the code, so every symbol has its own unmistakable shape. */
const CODE_FONT_FILE = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSansMono-Bold.ttf');
const CODE_FONT = 'Code';

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 28;

/** Where each card sits on the page (points, origin top left), shared with the tests that read the QR codes back. */
export const FLYER_LAYOUT = {
  page: A4,
  margin: MARGIN,
  cardWidth: (A4.width - 2 * MARGIN) / FLYER_COLUMNS,
  cardHeight: (A4.height - 2 * MARGIN) / FLYER_ROWS,
  padding: 14,
  /** The code across the card's whole width (about 85 mm), so a card photo taken from 3 m still reads it. */
  qrSize: (A4.width - 2 * MARGIN) / FLYER_COLUMNS - 2 * 14,
  perPage: FLYER_COLUMNS * FLYER_ROWS,
} as const;

export interface FlyerInput {
  businessName: string;
  publicUrl: string;
  school: { name: string; closingDate: string | null };
  album: { name: string };
  students: { name: string; code: string }[];
}

/** The URL a flyer's QR code opens: it unlocks the child and goes straight to their photos. */
export const codeUrl = (publicUrl: string, code: string) => `${publicUrl}/code/${formatStudentCode(code)}`;

export function cardOrigin(index: number): { x: number; y: number } {
  const slot = index % FLYER_LAYOUT.perPage;
  const column = slot % FLYER_COLUMNS;
  const row = Math.floor(slot / FLYER_COLUMNS);
  return { x: MARGIN + column * FLYER_LAYOUT.cardWidth, y: MARGIN + row * FLYER_LAYOUT.cardHeight };
}

function closingText(closingDate: string | null): string {
  if (!closingDate) return STUDENT_MSG.flyerNoClosingDate;
  if (isOrderingClosed(closingDate)) return STUDENT_MSG.flyerClosed;
  const date = new Date(`${closingDate}T12:00:00Z`);
  // A closing date is a calendar day, not an instant: written in UTC so it is the day that was set.
  return STUDENT_MSG.flyerClosing(formatDate(date, 'long', 'UTC'));
}

/**
 * The QR code drawn as vector squares (sharp on any printer), with its quiet zone left white.
 * Dark modules of a row are merged into runs; rows overlap by a hair so no seam shows between them.
 */
function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number): void {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const count = qr.modules.size;
  const quiet = 2;
  const cell = size / (count + 2 * quiet);
  doc.save();
  doc.rect(x, y, size, size).fill('#ffffff');
  for (let row = 0; row < count; row++) {
    let col = 0;
    while (col < count) {
      if (!qr.modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < count && qr.modules.get(row, col)) col++;
      doc.rect(x + (quiet + start) * cell, y + (quiet + row) * cell, (col - start) * cell, cell + 0.2);
    }
  }
  doc.fill('#000000');
  doc.restore();
}

function drawCutMarks(doc: PDFKit.PDFDocument): void {
  const { cardWidth, cardHeight } = FLYER_LAYOUT;
  doc.save().lineWidth(0.5).strokeColor('#555555');
  const xs = Array.from({ length: FLYER_COLUMNS + 1 }, (_, i) => MARGIN + i * cardWidth);
  const ys = Array.from({ length: FLYER_ROWS + 1 }, (_, i) => MARGIN + i * cardHeight);
  for (const x of xs) {
    doc.moveTo(x, MARGIN - 20).lineTo(x, MARGIN - 6).stroke();
    doc.moveTo(x, A4.height - MARGIN + 6).lineTo(x, A4.height - MARGIN + 20).stroke();
  }
  for (const y of ys) {
    doc.moveTo(MARGIN - 20, y).lineTo(MARGIN - 6, y).stroke();
    doc.moveTo(A4.width - MARGIN + 6, y).lineTo(A4.width - MARGIN + 20, y).stroke();
  }
  // Inner crossings, where four cards meet.
  for (const x of xs.slice(1, -1)) {
    for (const y of ys.slice(1, -1)) {
      doc.moveTo(x - 6, y).lineTo(x + 6, y).stroke();
      doc.moveTo(x, y - 6).lineTo(x, y + 6).stroke();
    }
  }
  doc.restore();
}

function drawCard(doc: PDFKit.PDFDocument, input: FlyerInput, student: { name: string; code: string }, index: number, closing: string): void {
  const { cardWidth, cardHeight, padding, qrSize } = FLYER_LAYOUT;
  const { x, y } = cardOrigin(index);
  doc.save().lineWidth(0.4).dash(2, { space: 3 }).strokeColor('#bbbbbb').rect(x, y, cardWidth, cardHeight).stroke().undash().restore();

  const left = x + padding;
  const width = cardWidth - 2 * padding;
  drawQr(doc, codeUrl(input.publicUrl, student.code), left, y + padding, qrSize);

  doc.fillColor('#000000').font(PDF_FONTS.bold).fontSize(14);
  doc.text(student.name, left, y + padding + qrSize + 4, { width, height: 34, ellipsis: true });
  doc.fillColor('#555555').font(PDF_FONTS.regular).fontSize(9);
  doc.text(`${input.school.name} · ${input.album.name}`, left, doc.y + 1, { width, height: 12, ellipsis: true });
  doc.fontSize(8).text(STUDENT_MSG.flyerCodeLabel, left, doc.y + 4, { width });
  doc.fillColor('#000000').font(CODE_FONT).fontSize(22).text(formatStudentCode(student.code), left, doc.y + 1, { width, characterSpacing: 1 });
  doc.font(PDF_FONTS.bold).fontSize(8).text(closing, left, doc.y + 2, { width, height: 11, ellipsis: true });
  const site = new URL(input.publicUrl).host;
  // A lost flyer is not the end: the code comes by SMS to the phone on the class list (docs/sms.md, "Codes recovered by phone").
  doc.font(PDF_FONTS.bold).fontSize(7).text(CODE_RECOVERY_MSG.flyerLost(site), left, doc.y + 2, { width, height: 9, ellipsis: true });
  doc.fillColor('#555555').font(PDF_FONTS.regular).fontSize(6.5).text(STUDENT_MSG.flyerHowTo(site), left, doc.y + 2, {
    width,
    height: Math.max(8, y + cardHeight - padding / 2 - doc.y),
    ellipsis: true,
  });
}

/** An A4 PDF, 4 cards a page with cut marks: QR code, child, school and class, code and closing date. */
export async function renderFlyers(input: FlyerInput): Promise<Buffer> {
  const doc = createPdfDocument({
    title: `${input.school.name} – ${input.album.name}: student codes`,
    author: input.businessName,
    margins: { top: 0, bottom: 0, left: 0, right: 0 },
  });
  doc.registerFont(CODE_FONT, CODE_FONT_FILE);
  const closing = closingText(input.school.closingDate);
  input.students.forEach((student, index) => {
    if (index % FLYER_LAYOUT.perPage === 0) {
      if (index > 0) doc.addPage({ size: 'A4', margins: { top: 0, bottom: 0, left: 0, right: 0 } });
      drawCutMarks(doc);
    }
    drawCard(doc, input, student, index, closing);
  });
  return pdfToBuffer(doc);
}
