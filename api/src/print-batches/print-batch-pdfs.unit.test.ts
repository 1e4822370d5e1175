import { describe, expect, it } from 'vitest';
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
      quantity: 1 + (line % 3),
      photoId: line + 1,
      originalName: `IMG_${String(400 + line).padStart(4, '0')}.JPG`,
      originalNumber: String(400 + line).padStart(4, '0'),
      storedName: 'abcdef0123456789.jpg',
      className,
      file: { storageKey: 'abcdef0123456789', mimeType: 'image/jpeg', size: 1000 + line },
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
