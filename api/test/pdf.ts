/**
 * Reads a PDF back in tests: the text of each page, in reading order, with pdfjs-dist (Mozilla's
 * PDF engine), so an assertion checks what a reader of the document would see.
 */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export async function pdfPagesText(data: Uint8Array): Promise<string[]> {
  const document = await getDocument({ data: new Uint8Array(data), useSystemFonts: false, isEvalSupported: false }).promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const lines: string[] = [];
      let line = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        line += item.str;
        if (item.hasEOL) {
          lines.push(line);
          line = '';
        } else if (item.str !== '' && !line.endsWith(' ')) {
          line += ' ';
        }
      }
      if (line.trim() !== '') lines.push(line);
      pages.push(lines.map((text) => text.replace(/\s+/g, ' ').trim()).filter(Boolean).join('\n'));
    }
    return pages;
  } finally {
    await document.destroy();
  }
}
