import { describe, expect, it } from 'vitest';
import { createPdfDocument, pdfToBuffer, PDF_FONTS } from './document';
import { pdfPagesText } from '../../test/pdf';

describe('createPdfDocument', () => {
  it('embeds a font that keeps Setswana and accented names readable', async () => {
    const doc = createPdfDocument({ title: 'Fonts', author: 'Test Studio' });
    doc.font(PDF_FONTS.bold).fontSize(14).text('Kgalalelo Mosweu');
    doc.font(PDF_FONTS.regular).fontSize(11).text('Zoë Ṱhabo Ñandú');
    doc.addPage().text('Second page');
    const pdf = await pdfToBuffer(doc);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pages = await pdfPagesText(pdf);
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain('Kgalalelo Mosweu');
    expect(pages[0]).toContain('Zoë Ṱhabo Ñandú');
    expect(pages[1]).toBe('Second page');
  });
});
