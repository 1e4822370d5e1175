import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';

const require = createRequire(import.meta.url);
const fontDir = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');

/**
 * The fonts every PDF embeds. PDF's standard 14 fonts only know Latin-1, so names such as
 * "Kgalalelo Mosweu", "Nthabiseng Ṱhabo" or "Zoë" would print as garbage; DejaVu Sans covers
 * Latin Extended, combining marks and more, and ships in an npm package, so the server needs no
 * system fonts.
 */
export const PDF_FONTS = {
  regular: 'Body',
  bold: 'Bold',
} as const;

const FONT_FILES: Record<(typeof PDF_FONTS)[keyof typeof PDF_FONTS], string> = {
  Body: path.join(fontDir, 'DejaVuSans.ttf'),
  Bold: path.join(fontDir, 'DejaVuSans-Bold.ttf'),
};

export interface PdfOptions {
  title: string;
  author: string;
  /** What the document is for (such as the label stock it is laid out for); its metadata's Subject. */
  subject?: string;
  /** Points; A4 portrait by default. */
  margins?: { top: number; bottom: number; left: number; right: number };
  /** Buffer pages so page numbers ("Page n of m") can be written once the page count is known. */
  bufferPages?: boolean;
}

/** An A4 pdfkit document with the embedded fonts registered and the body font selected. */
export function createPdfDocument(options: PdfOptions): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size: 'A4',
    margins: options.margins ?? { top: 48, bottom: 48, left: 48, right: 48 },
    bufferPages: options.bufferPages ?? false,
    info: { Title: options.title, Author: options.author, Creator: options.author, ...(options.subject ? { Subject: options.subject } : {}) },
    autoFirstPage: true,
  });
  for (const [name, file] of Object.entries(FONT_FILES)) doc.registerFont(name, file);
  doc.font(PDF_FONTS.regular);
  return doc;
}

/** Ends the document and collects it; for small documents (a few MB at most). */
export function pdfToBuffer(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}
