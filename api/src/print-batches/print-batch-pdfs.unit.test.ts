import { describe, expect, it } from 'vitest';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { pdfPagesText } from '../../test/pdf';
import { planBatch } from './batch-plan';
import type { BatchOrderRecord } from './print-batches.repository';
import { labelsPdf } from './labels-pdf';
import { packingListPdf } from './packing-list-pdf';

const STUDENTS = ['Kgalalelo Mosweu', 'zoë Ṱhabo', 'Ábel Dube', 'Onkarabile Setshwaelo', 'neo Molefe', 'Thato Kgosidintsi', 'Boitumelo Seretse'];

function record(index: number, className: string, lines = 1, status: BatchOrderRecord['orderStatus'] = 'at_printers'): BatchOrderRecord {
  return {
    id: `ORDER${String(index).padStart(8, '0')}`,
    studentName: `${STUDENTS[index % STUDENTS.length]} ${index}`,
    customerName: `Parent ${index}`,
    orderStatus: status,
    createdAt: 0,
    lines: Array.from({ length: lines }, (_, line) => ({
      itemId: index * 100 + line,
      productName: line % 2 ? 'Large Frame' : '10x15 Print',
      packageName: null,
      quantity: 1 + (line % 3),
      photoId: line + 1,
      originalName: `IMG_${String(400 + line).padStart(4, '0')}.JPG`,
      originalNumber: String(400 + line).padStart(4, '0'),
      storedName: 'abcdef0123456789.jpg',
      className,
      studentName: null,
      file: { storageKey: 'abcdef0123456789', mimeType: 'image/jpeg', size: 1000 + line },
      lineStudentId: null,
      photoNow: { studentId: null, inTray: false, card: false, doNotPublish: false },
    })),
  };
}

describe('batch plan', () => {
  it('packs by class in the gallery order, then student; cancelled orders get no files', () => {
    const plan = planBatch([record(1, 'Class 10C'), record(2, 'Class 2B'), record(3, 'class 1a'), record(4, 'Class 2B'), record(5, 'Class 1A', 1, 'cancelled')]);
    expect(plan.orders.map((order) => [order.className, order.studentName])).toEqual([
      ['class 1a', 'Onkarabile Setshwaelo 3'],
      ['Class 1A', 'Thato Kgosidintsi 5'],
      ['Class 2B', 'Ábel Dube 2'],
      ['Class 2B', 'neo Molefe 4'],
      ['Class 10C', 'zoë Ṱhabo 1'],
    ]);
    expect(plan.active.map((order) => order.id)).toEqual(['ORDER00000003', 'ORDER00000002', 'ORDER00000004', 'ORDER00000001']);
    expect(plan.orders[1]!.lines[0]!.zipPath).toBe('');
    expect(plan.active[0]!.lines[0]!.zipPath).toBe('10x15 Print/ORDER00000003_Onkarabile Setshwaelo 3_IMG_0400.JPG');
    expect(plan).toMatchObject({ fileCount: 4, originalsBytes: 4000 });
  });

  it('puts an order without a class under its own heading', () => {
    const plan = planBatch([{ ...record(1, 'x'), lines: record(1, 'x').lines.map((line) => ({ ...line, className: null })) }]);
    expect(plan.orders[0]!.className).toBe('No class');
  });
});

describe('packing list and labels', () => {
  const orders = planBatch([...Array.from({ length: 40 }, (_, i) => record(i, 'Class 1A', 1 + (i % 4))), ...Array.from({ length: 3 }, (_, i) => record(100 + i, 'Class 3C'))]).active;

  it('runs a long class over pages with its heading repeated, and numbers every page', async () => {
    const pages = await pdfPagesText(await packingListPdf({ businessName: 'Test Studio', schoolName: 'Acacia Primary', batchId: 7, date: '23 November 2026', orders }));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    pages.forEach((page, index) => {
      expect(page.startsWith('Packing list · Acacia Primary\nBatch #7 · 23 November 2026 · 43 order(s)')).toBe(true);
      expect(page.endsWith(`Page ${index + 1} of ${pages.length}`)).toBe(true);
    });
    expect(pages[0]).toContain('Class 1A · 40 order(s)');
    expect(pages[1]).toContain('Class 1A (continued)');
    // The next class starts on a page of its own, for its teacher.
    const class3C = pages.findIndex((page) => page.includes('Class 3C · 3 order(s)'));
    expect(pages[class3C]).not.toContain('Class 1A');
    const text = pages.join('\n').replace(/\s+/g, ' ');
    const positions = orders.map((order) => text.indexOf(order.id));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('fills A4 sheets of 14 labels, one per order, in packing order', async () => {
    const pages = await pdfPagesText(await labelsPdf({ businessName: 'Test Studio', schoolName: 'Acacia Primary', batchId: 7, orders }));
    expect(pages).toHaveLength(4);
    const perPage = pages.map((page) => (page.match(/Order #/g) ?? []).length);
    expect(perPage).toEqual([14, 14, 14, 1]);
    const text = pages.join('\n').replace(/\s+/g, ' ');
    const positions = orders.map((order) => text.indexOf(`Order #${order.id}`));
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(text).toContain(`${orders[0]!.studentName} Class 1A · Acacia Primary Order #${orders[0]!.id}`);
  });

  it('shows at most what fits on a label and points to the packing list for the rest', async () => {
    const crowded = planBatch([record(1, 'Class 1A', 9)]).active;
    const [page] = await pdfPagesText(await labelsPdf({ businessName: 'Test Studio', schoolName: 'Acacia Primary', batchId: 7, orders: crowded }));
    expect(page).toContain('+5 more (see the packing list)');
    expect(page!.match(/× \d/g)).toHaveLength(4);
  });
});

const MM = 72 / 25.4;

/**
 * The stroked outlines of 99.1 x 38.1 mm on each page (pdfjs gives each path's paint operator and
 * its bounding box), and the document's Subject.
 */
async function outlinesAndSubject(pdf: Buffer): Promise<{ outlines: number[]; subject: string }> {
  const document = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, isEvalSupported: false }).promise;
  try {
    const outlines: number[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const { fnArray, argsArray } = await (await document.getPage(number)).getOperatorList();
      outlines.push(
        fnArray.filter((fn, index) => {
          if (fn !== OPS.constructPath) return false;
          const [paint, , box] = argsArray[index] as [number, unknown, Record<number, number>];
          const [x0, y0, x1, y1] = [box[0]!, box[1]!, box[2]!, box[3]!];
          return paint === OPS.stroke && Math.abs(x1 - x0 - 99.1 * MM) < 0.5 && Math.abs(y1 - y0 - 38.1 * MM) < 0.5;
        }).length,
      );
    }
    const info = (await document.getMetadata()).info as { Subject?: string };
    return { outlines, subject: info.Subject ?? '' };
  } finally {
    await document.destroy();
  }
}

describe('an order for two children (issue 29)', () => {
  // Bonolo's and Kgalalelo's portraits (each line's own child), and a group photo of the order.
  const twoChildren: BatchOrderRecord = {
    ...record(1, 'Class 1A', 3),
    studentName: 'Bonolo Mosweu, Kgalalelo Setshwaelo',
  };
  twoChildren.lines[0] = { ...twoChildren.lines[0]!, studentName: 'Bonolo Mosweu', className: 'Class 1A', originalName: 'IMG_0001.JPG' };
  twoChildren.lines[1] = { ...twoChildren.lines[1]!, studentName: 'Kgalalelo Setshwaelo', className: 'Class 4B', originalName: 'IMG_0002.JPG' };
  twoChildren.lines[2] = { ...twoChildren.lines[2]!, studentName: null, className: 'Class 1A', originalName: 'GROUP_1A.JPG' };
  const plan = planBatch([twoChildren]);

  it('names each file for its own child and packs one envelope per child, under that child\'s class', () => {
    expect(plan.active[0]!.lines.map((line) => line.zipPath)).toEqual([
      '10x15 Print/ORDER00000001_Bonolo Mosweu_IMG_0001.JPG',
      'Large Frame/ORDER00000001_Kgalalelo Setshwaelo_IMG_0002_qty2.JPG',
      '10x15 Print/ORDER00000001_Bonolo Mosweu, Kgalalelo Setshwaelo_GROUP_1A_qty3.JPG',
    ]);
    expect(plan.envelopes.map((envelope) => [envelope.className, envelope.studentName, envelope.lines.map((line) => line.originalName)])).toEqual([
      ['Class 1A', 'Bonolo Mosweu', ['IMG_0001.JPG']],
      ['Class 1A', 'Bonolo Mosweu, Kgalalelo Setshwaelo', ['GROUP_1A.JPG']],
      ['Class 4B', 'Kgalalelo Setshwaelo', ['IMG_0002.JPG']],
    ]);
  });

  it('gives each envelope its own label and packing-list row, still counting one order', async () => {
    const labels = await pdfPagesText(await labelsPdf({ businessName: 'Test Studio', schoolName: 'Acacia Primary', batchId: 7, orders: plan.envelopes }));
    const text = labels.join('\n').replace(/\s+/g, ' ');
    expect(text).toContain('Bonolo Mosweu Class 1A · Acacia Primary Order #ORDER00000001 10x15 Print × 1 · IMG_0001.JPG');
    expect(text).toContain('Kgalalelo Setshwaelo Class 4B · Acacia Primary Order #ORDER00000001 Large Frame × 2 · IMG_0002.JPG');
    const packing = (await pdfPagesText(await packingListPdf({ businessName: 'Test Studio', schoolName: 'Acacia Primary', batchId: 7, date: '23 November 2026', orders: plan.envelopes }))).map((page) => page.replace(/\s+/g, ' '));
    expect(packing).toHaveLength(2);
    expect(packing[0]).toContain('1 order(s) · 6 print(s)');
    expect(packing[0]).toContain('Class 1A · 1 order(s)');
    expect(packing[0]).toContain('Bonolo Mosweu Parent 1 ORDER00000001 10x15 Print × 1 · IMG_0001.JPG');
    expect(packing[0]).not.toContain('IMG_0002.JPG');
    expect(packing[1]).toContain('Class 4B · 1 order(s)');
    expect(packing[1]).toContain('Kgalalelo Setshwaelo Parent 1 ORDER00000001 Large Frame × 2 · IMG_0002.JPG');
  });

  it('outlines every label of the named A4 2 x 7 stock on every page, used or not', async () => {
    const envelopes = planBatch(Array.from({ length: 15 }, (_, i) => record(i, 'Class 1A'))).envelopes;
    const { outlines, subject } = await outlinesAndSubject(await labelsPdf({ businessName: 'Test Studio', schoolName: 'Acacia Primary', batchId: 7, orders: envelopes }));
    expect(outlines).toEqual([14, 14]);
    expect(subject).toBe('A4 sheet of 14 labels, 2 × 7, 99.1 × 38.1 mm (Avery L7163 or equivalent)');
  });
});
