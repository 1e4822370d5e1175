import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeApi, staffClient, startTestServer, type Client, type TestServer } from '../../test/harness';
import { createShop, parentFor, type Shop } from '../../test/shop';
import { pdfPagesText } from '../../test/pdf';
import { parseCsv } from '../../../pwa/test/parse-csv';
import { PRINT_BATCH_MSG } from '../../contract/messages';
import { addPriceListItem, storedOriginalOf } from '../../test/fixtures';
import { readZip } from '../../test/zip';
import { addAlbum, addPhoto, distinctJpeg, paidOrder } from './print-batches.test-helpers';

/**
 * The lab's files of one batch, read back as the lab and the photographer would: the ZIP unpacked
 * and compared byte for byte with the uploads, its order sheet parsed, the PDFs' text extracted.
 */
describeApi('print batch files', () => {
  let server: TestServer;
  let staff: Client;
  let shop: Shop;
  let batchId: number;
  let schoolName: string;
  const photos: Record<string, { id: number; bytes: Buffer }> = {};
  const orders: Record<string, string> = {};
  const framed = { id: '', name: 'Framed Print', priceThebe: 5000 };

  beforeAll(async () => {
    server = await startTestServer();
    staff = await staffClient(server, 'photographer');
    shop = await createShop(server);
    schoolName = shop.schoolName;
    framed.id = String(await addPriceListItem(server, shop.priceListId!, { productName: framed.name, description: '20x25', priceThebe: framed.priceThebe }, 2));

    // Class names whose text order differs from the gallery's numeric order: 1A, 2A, 10C.
    const class2A = await addAlbum(server, shop.schoolId, 'Class 2A');
    const class10C = await addAlbum(server, shop.schoolId, 'Class 10C');
    photos.frame0101 = await addPhoto(server, class10C, 'IMG_0101.JPG', await distinctJpeg(1));
    photos.unicode = await addPhoto(server, class10C, 'Kgosi_Ṱhabo_0102.jpg', await distinctJpeg(2));
    photos.frame0103 = await addPhoto(server, class2A, 'IMG_0103.JPG', await distinctJpeg(3));
    photos.lost = await addPhoto(server, shop.openAlbumId, 'DSC_0104.JPG', await distinctJpeg(4));
    photos.hostile = await addPhoto(server, shop.openAlbumId, '../../etc/passwd', await distinctJpeg(5));
    photos.twice = await addPhoto(server, shop.openAlbumId, 'IMG_0106.JPG', await distinctJpeg(6));

    const parent = await parentFor(server, shop);
    const line = (photo: { id: number }, albumId: number, product: { id: string; name: string; priceThebe: number }, quantity: number) => ({ photoId: photo.id, albumId, product, quantity });
    orders.zoe = await paidOrder(server, parent, shop, [line(photos.frame0101!, class10C, shop.print, 3), line(photos.unicode!, class10C, framed, 1), line(photos.unicode!, class10C, shop.digital, 1)], { studentName: 'Zoë Ṱhabo' });
    orders.kgalalelo = await paidOrder(server, parent, shop, [line(photos.frame0103!, class2A, shop.print, 1)], { studentName: 'Kgalalelo Mosweu', customerName: 'Naledi Mosweu' });
    orders.hostile = await paidOrder(server, parent, shop, [line(photos.hostile!, shop.openAlbumId, shop.print, 2), line(photos.lost!, shop.openAlbumId, shop.print, 1)], { studentName: 'Amo/..\\Evil <Name>' });
    orders.abel = await paidOrder(server, parent, shop, [line(photos.twice!, shop.openAlbumId, shop.print, 1), line(photos.twice!, shop.openAlbumId, shop.print, 1)], { studentName: 'Ábel Dube' });
    orders.cancelled = await paidOrder(server, parent, shop, [line(photos.twice!, shop.openAlbumId, shop.print, 1)], { studentName: 'Cancelled Child' });

    const batch = await staff.post('/api/print-batches', { schoolId: shop.schoolId });
    expect(batch.status).toBe(201);
    batchId = batch.body.id;
    expect((await staff.put(`/api/orders/${orders.cancelled}`, { orderStatus: 'cancelled' })).status).toBe(200);
    // An original gone from storage after the batch was made.
    await server.runtime.media.removePhoto(await storedOriginalOf(server, photos.lost!.id));
  });
  afterAll(async () => server.close());

  /** Packing order: class as the gallery sorts (1A, 2A, 10C), then student. */
  const packed = () => [orders.abel!, orders.hostile!, orders.kgalalelo!, orders.zoe!];

  it('streams a stored ZIP with every original byte for byte, named for the lab, and lists what is missing', async () => {
    const res = await staff.get(`/api/print-batches/${batchId}/files.zip`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain(`attachment; filename="Batch ${batchId} files - ${schoolName}.zip"`);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    // Sent as it is made: no length known up front.
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('transfer-encoding')).toBe('chunked');

    const entries = await readZip(res.body as Buffer);
    const byName = new Map(entries.map((entry) => [entry.name, entry]));
    const expected: [string, Buffer][] = [
      [`Glossy Print/${orders.abel}_Ábel Dube_IMG_0106.JPG`, photos.twice!.bytes],
      [`Glossy Print/${orders.abel}_Ábel Dube_IMG_0106 (2).JPG`, photos.twice!.bytes],
      [`Glossy Print/${orders.hostile}_Amo-.-Evil -Name-_-.-etc-passwd_qty2.jpg`, photos.hostile!.bytes],
      [`Glossy Print/${orders.kgalalelo}_Kgalalelo Mosweu_IMG_0103.JPG`, photos.frame0103!.bytes],
      [`Glossy Print/${orders.zoe}_Zoë Ṱhabo_IMG_0101_qty3.JPG`, photos.frame0101!.bytes],
      [`Framed Print/${orders.zoe}_Zoë Ṱhabo_Kgosi_Ṱhabo_0102.jpg`, photos.unicode!.bytes],
    ];
    expect(entries.map((entry) => entry.name).sort()).toEqual([...expected.map(([name]) => name), 'order-sheet.csv', 'MISSING.txt'].sort());
    for (const [name, bytes] of expected) {
      const entry = byName.get(name)!;
      expect(entry.compressionMethod, name).toBe(0);
      expect(entry.data.equals(bytes), `${name} is the uploaded original`).toBe(true);
    }
    expect(byName.get(`Framed Print/${orders.zoe}_Zoë Ṱhabo_Kgosi_Ṱhabo_0102.jpg`)!.utf8).toBe(true);
    for (const entry of entries) {
      expect(entry.name).not.toMatch(/\\|\.\.|^\//);
      expect(entry.name).not.toMatch(/\p{Cc}/u);
      expect(entry.name.split('/').length).toBeLessThanOrEqual(2);
    }
    // Digital copies and cancelled orders never reach the lab.
    expect(entries.some((entry) => entry.name.includes('HD Download') || entry.name.includes(orders.cancelled!))).toBe(false);

    const sheet = byName.get('order-sheet.csv')!.data.toString('utf8');
    expect(sheet.startsWith('\uFEFF')).toBe(true);
    const rows = parseCsv(sheet.slice(1));
    expect(rows[0]).toEqual([...PRINT_BATCH_MSG.orderSheetColumns]);
    expect(rows.slice(1)).toEqual([
      [orders.abel, schoolName, 'Class 1A', 'Ábel Dube', 'Glossy Print', '1', expected[0]![0], '0106', 'IMG_0106.JPG'],
      [orders.abel, schoolName, 'Class 1A', 'Ábel Dube', 'Glossy Print', '1', expected[1]![0], '0106', 'IMG_0106.JPG'],
      [orders.hostile, schoolName, 'Class 1A', 'Amo/..\\Evil <Name>', 'Glossy Print', '2', expected[2]![0], '', '../../etc/passwd'],
      [orders.hostile, schoolName, 'Class 1A', 'Amo/..\\Evil <Name>', 'Glossy Print', '1', '', '0104', 'DSC_0104.JPG'],
      [orders.kgalalelo, schoolName, 'Class 2A', 'Kgalalelo Mosweu', 'Glossy Print', '1', expected[3]![0], '0103', 'IMG_0103.JPG'],
      [orders.zoe, schoolName, 'Class 10C', 'Zoë Ṱhabo', 'Glossy Print', '3', expected[4]![0], '0101', 'IMG_0101.JPG'],
      [orders.zoe, schoolName, 'Class 10C', 'Zoë Ṱhabo', 'Framed Print', '1', expected[5]![0], '0102', 'Kgosi_Ṱhabo_0102.jpg'],
    ]);

    const missing = byName.get('MISSING.txt')!.data.toString('utf8');
    expect(missing).toContain(PRINT_BATCH_MSG.missingIntro);
    expect(missing).toContain(`Order #${orders.hostile} · Amo/..\\Evil <Name> · Class 1A · Glossy Print × 1 · DSC_0104.JPG (0104)`);
    expect(missing.match(/Order #/g)).toHaveLength(1);
  });

  it('a download cut short by the client leaves the server serving the next one whole', async () => {
    const controller = new AbortController();
    const res = await fetch(`${server.url}/api/print-batches/${batchId}/files.zip`, { headers: { Authorization: `Bearer ${staff.token}` }, signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await reader.read().catch(() => undefined);
    const again = await staff.get(`/api/print-batches/${batchId}/files.zip`);
    expect(again.status).toBe(200);
    expect((await readZip(again.body as Buffer)).length).toBe(8);
  });

  it('lists the batch in packing order, with the files the ZIP will carry', async () => {
    const detail = await staff.get(`/api/print-batches/${batchId}`);
    expect(detail.status).toBe(200);
    const active = detail.body.orders.filter((order: { orderStatus: string }) => order.orderStatus !== 'cancelled');
    expect(active.map((order: { id: string }) => order.id)).toEqual(packed());
    expect(detail.body.orders.find((order: { id: string }) => order.id === orders.cancelled)).toMatchObject({ orderStatus: 'cancelled', className: 'Class 1A' });
    expect(detail.body).toMatchObject({ orderCount: 4, printCount: 10, fileCount: 7 });
    const sizes = [photos.twice, photos.twice, photos.hostile, photos.lost, photos.frame0103, photos.frame0101, photos.unicode].reduce((sum, photo) => sum + photo!.bytes.length, 0);
    expect(detail.body.originalsBytes).toBe(sizes);
  });

  it('prints a packing list per class in the gallery order, with header, tick rows and page numbers', async () => {
    const res = await staff.get(`/api/print-batches/${batchId}/packing-list.pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain(`filename="Batch ${batchId} packing list - ${schoolName}.pdf"`);
    const pages = await pdfPagesText(res.body as Buffer);
    expect(pages).toHaveLength(3);
    const date = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Africa/Gaborone' }).format(new Date());
    pages.forEach((page, index) => {
      expect(page).toContain(`Packing list · ${schoolName}`);
      expect(page).toContain(`Batch #${batchId} · ${date} · 4 order(s) · 10 print(s)`);
      expect(page).toContain(`Page ${index + 1} of 3`);
      expect(page).toContain('Packed Student Parent Order Items');
      expect(page).toContain(PRINT_BATCH_MSG.receivedBy.replace(/\s+/g, ' '));
    });
    expect(pages[0]).toContain('Class 1A · 2 order(s)');
    expect(pages[1]).toContain('Class 2A · 1 order(s)');
    expect(pages[2]).toContain('Class 10C · 1 order(s)');
    // Long names wrap inside their cell: read the text as a reader would, across line breaks.
    const text = pages.join('\n').replace(/\s+/g, ' ');
    const students = ['Ábel Dube', 'Amo/..\\Evil <Name>', 'Kgalalelo Mosweu', 'Zoë Ṱhabo'];
    expectInOrder(text, students);
    expectInOrder(text, packed());
    expect(text).toContain('Naledi Mosweu');
    expect(text).toContain('Glossy Print × 3 · IMG_0101.JPG');
    expect(text).toContain('Framed Print × 1 · Kgosi_Ṱhabo_0102.jpg');
    expect(text).not.toContain('HD Download');
    expect(text).not.toContain('Cancelled Child');
  });

  it('prints one label per order on the 2 x 7 sheet, in packing order', async () => {
    const res = await staff.get(`/api/print-batches/${batchId}/labels.pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pages = await pdfPagesText(res.body as Buffer);
    expect(pages).toHaveLength(1);
    const labels = pages[0]!.replace(/\s+/g, ' ');
    expectInOrder(labels, ['Ábel Dube', `Order #${orders.abel}`, 'Amo/..\\Evil <Name>', `Order #${orders.hostile}`, 'Kgalalelo Mosweu', `Order #${orders.kgalalelo}`, 'Zoë Ṱhabo', `Order #${orders.zoe}`]);
    expect(labels).toContain(`Class 10C · ${schoolName}`);
    expect(labels).toContain(`Class 2A · ${schoolName}`);
    expect(labels).toContain('Glossy Print × 2 · ../../etc/passwd');
    expect(labels).not.toContain('Cancelled Child');
  });
});

function expectInOrder(text: string, parts: string[]): void {
  const positions = parts.map((part) => text.indexOf(part));
  for (const [index, position] of positions.entries()) expect(position, `${parts[index]} is in the text`).toBeGreaterThanOrEqual(0);
  expect([...positions].sort((a, b) => a - b)).toEqual(positions);
}
