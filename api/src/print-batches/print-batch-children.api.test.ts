import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeApi, staffClient, startTestServer, type Client, type TestServer } from '../../test/harness';
import { createShop, parentFor, type Shop } from '../../test/shop';
import { pdfPagesText } from '../../test/pdf';
import { parseCsv } from '../../../pwa/test/parse-csv';
import { PRINT_BATCH_MSG } from '../../contract/messages';
import { readZip } from '../../test/zip';
import { addAlbum, addPhoto, distinctJpeg, paidOrder } from './print-batches.test-helpers';

/**
 * Whose print is it (issue 29): one order for two children, Bonolo in Class 1A and Kgalalelo in
 * Class 4B, plus a group photo. Every file, sheet row, packing-list row, label and order line names
 * the child of that print (the photo's student when the order was placed), else the order's
 * student name, so the teacher knows which envelope each print goes in.
 */
describeApi('print batch files for an order with two children', () => {
  let server: TestServer;
  let staff: Client;
  let shop: Shop;
  let batchId: number;
  let orderId: string;
  const both = 'Bonolo Mosweu, Kgalalelo Setshwaelo';

  beforeAll(async () => {
    server = await startTestServer();
    staff = await staffClient(server, 'photographer');
    shop = await createShop(server);
    const class4B = await addAlbum(server, shop.schoolId, 'Class 4B');
    const bonoloPhoto = await addPhoto(server, shop.openAlbumId, 'IMG_0201.JPG', await distinctJpeg(11));
    const kgalaleloPhoto = await addPhoto(server, class4B, 'IMG_0202.JPG', await distinctJpeg(12));
    const groupPhoto = await addPhoto(server, shop.openAlbumId, 'GROUP_1A.JPG', await distinctJpeg(13));
    const bonolo = await staff.post(`/api/albums/${shop.openAlbumId}/students`, { students: [{ name: 'Bonolo Mosweu' }] });
    const kgalalelo = await staff.post(`/api/albums/${class4B}/students`, { students: [{ name: 'Kgalalelo Setshwaelo' }] });
    expect([bonolo.status, kgalalelo.status]).toEqual([201, 201]);
    expect((await staff.put('/api/photos/student', { photoIds: [bonoloPhoto.id], studentId: bonolo.body.students[0].id })).status).toBe(200);
    expect((await staff.put('/api/photos/student', { photoIds: [kgalaleloPhoto.id], studentId: kgalalelo.body.students[0].id })).status).toBe(200);

    const parent = await parentFor(server, shop);
    orderId = await paidOrder(
      server,
      parent,
      shop,
      [
        { photoId: bonoloPhoto.id, albumId: shop.openAlbumId, product: shop.print, quantity: 1 },
        { photoId: kgalaleloPhoto.id, albumId: class4B, product: shop.print, quantity: 2 },
        { photoId: groupPhoto.id, albumId: shop.openAlbumId, product: shop.print, quantity: 1 },
      ],
      { studentName: both, customerName: 'Naledi Mosweu' },
    );
    const batch = await staff.post('/api/print-batches', { schoolId: shop.schoolId });
    expect(batch.status).toBe(201);
    batchId = batch.body.id;
  });
  afterAll(async () => server.close());

  it("names each file in the ZIP and each order-sheet row for that print's own child and class", async () => {
    const res = await staff.get(`/api/print-batches/${batchId}/files.zip`);
    expect(res.status).toBe(200);
    const entries = await readZip(res.body as Buffer);
    expect(entries.map((entry) => entry.name).filter((name) => name.endsWith('.JPG')).sort()).toEqual(
      [`Glossy Print/${orderId}_Bonolo Mosweu_IMG_0201.JPG`, `Glossy Print/${orderId}_Kgalalelo Setshwaelo_IMG_0202_qty2.JPG`, `Glossy Print/${orderId}_${both}_GROUP_1A.JPG`].sort(),
    );
    const sheet = entries.find((entry) => entry.name === 'order-sheet.csv')!;
    const [header, ...rows] = parseCsv(sheet.data.toString('utf8').replace(/^\uFEFF/, ''));
    expect(header).toEqual([...PRINT_BATCH_MSG.orderSheetColumns]);
    expect(rows.map((row) => [row[2], row[3], row[8]]).sort()).toEqual(
      [
        ['Class 1A', 'Bonolo Mosweu', 'IMG_0201.JPG'],
        ['Class 1A', both, 'GROUP_1A.JPG'],
        ['Class 4B', 'Kgalalelo Setshwaelo', 'IMG_0202.JPG'],
      ].sort(),
    );
  });

  it("packs and labels one envelope per child, under each child's class, as one order", async () => {
    const packing = await staff.get(`/api/print-batches/${batchId}/packing-list.pdf`);
    expect(packing.status).toBe(200);
    const pages = (await pdfPagesText(packing.body as Buffer)).map((page) => page.replace(/\s+/g, ' '));
    expect(pages[0]).toContain('1 order(s) · 4 print(s)');
    const class1A = pages.find((page) => page.includes('Class 1A ·'))!;
    const class4B = pages.find((page) => page.includes('Class 4B ·'))!;
    expect(class1A).toContain(`Bonolo Mosweu Naledi Mosweu ${orderId} Glossy Print × 1 · IMG_0201.JPG`);
    expect(class1A).not.toContain('IMG_0202.JPG');
    expect(class4B).toContain(`Kgalalelo Setshwaelo Naledi Mosweu ${orderId} Glossy Print × 2 · IMG_0202.JPG`);
    expect(class4B).not.toContain('IMG_0201.JPG');

    const labels = await staff.get(`/api/print-batches/${batchId}/labels.pdf`);
    expect(labels.status).toBe(200);
    const text = (await pdfPagesText(labels.body as Buffer)).join('\n').replace(/\s+/g, ' ');
    expect(text.match(/Order #/g)).toHaveLength(3);
    expect(text).toContain(`Bonolo Mosweu Class 1A · ${shop.schoolName} Order #${orderId} Glossy Print × 1 · IMG_0201.JPG`);
    expect(text).toContain(`Kgalalelo Setshwaelo Class 4B · ${shop.schoolName} Order #${orderId} Glossy Print × 2 · IMG_0202.JPG`);
  });

  it("tells staff each line's child in the batch detail and in order management", async () => {
    const detail = await staff.get(`/api/print-batches/${batchId}`);
    expect(detail.status).toBe(200);
    const items = detail.body.orders[0].items as { photoName: string; studentName: string }[];
    expect(items.map((item) => [item.photoName, item.studentName])).toEqual([
      ['IMG_0201.JPG', 'Bonolo Mosweu'],
      ['IMG_0202.JPG', 'Kgalalelo Setshwaelo'],
      ['GROUP_1A.JPG', both],
    ]);
    const order = await staff.get(`/api/orders/${orderId}`);
    expect(order.status).toBe(200);
    expect(order.body.studentName).toBe(both);
    expect((order.body.items as { photoOriginalName: string; studentName: string }[]).map((item) => [item.photoOriginalName, item.studentName])).toEqual([
      ['IMG_0201.JPG', 'Bonolo Mosweu'],
      ['IMG_0202.JPG', 'Kgalalelo Setshwaelo'],
      ['GROUP_1A.JPG', both],
    ]);
    // The order management list reads its lines another way: the same names.
    const list = await staff.get(`/api/orders?school=${shop.schoolId}`);
    expect(list.status).toBe(200);
    const listed = (list.body as { id: string; items: { studentName: string }[] }[]).find((candidate) => candidate.id === orderId)!;
    expect(listed.items.map((item) => item.studentName)).toEqual(['Bonolo Mosweu', 'Kgalalelo Setshwaelo', both]);
  });
});
