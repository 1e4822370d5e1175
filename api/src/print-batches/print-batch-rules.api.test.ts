import { afterAll, beforeAll, expect, it } from 'vitest';
import { printBatchDetailSchema } from '../../contract/print-batches';
import { PRINT_BATCH_MSG } from '../../contract/messages';
import { describeApi, staffClient, startTestServer, type Client, type TestServer } from '../../test/harness';
import { pdfPagesText } from '../../test/pdf';
import { createShop, parentFor, type Shop } from '../../test/shop';
import { readZip } from '../../test/zip';
import { addStudents, assignPhotos } from '../students/students.test-helpers';
import { addPhoto, distinctJpeg, paidOrder } from './print-batches.test-helpers';

/**
 * Prints follow the rules (docs/access.md, "Prints follow the rules"): a paid order's print lines
 * whose photo has since become a do-not-publish child's, been erased, or stopped being the
 * ordering child's are left out of the ZIP, the order sheet, MISSING.txt, the packing list and
 * the labels, and listed for staff in the batch detail.
 */
describeApi('print batches leave out what may no longer be printed', () => {
  let server: TestServer;
  let staff: Client;
  let shop: Shop;
  let batchId: number;
  let orderId: string;
  let allLeftOut: string;

  beforeAll(async () => {
    server = await startTestServer();
    staff = await staffClient(server, 'admin');
    shop = await createShop(server);
    const [neo, lesedi, mpho, kabo] = await addStudents(staff, shop.openAlbumId, ['Neo Dube', 'Lesedi Tau', 'Mpho Kgosi', 'Kabo Sello']);
    const photo = async (name: string, seed: number) => (await addPhoto(server, shop.openAlbumId, name, await distinctJpeg(seed))).id;
    const kept = await photo('IMG_0301.JPG', 31);
    const group = await photo('GROUP_0302.JPG', 32);
    const hidden = await photo('IMG_0303.JPG', 33);
    const moved = await photo('IMG_0304.JPG', 34);
    const erased = await photo('IMG_0305.JPG', 35);
    const alone = await photo('IMG_0306.JPG', 36);
    await assignPhotos(staff, [kept], neo!.id);
    await assignPhotos(staff, [hidden], lesedi!.id);
    await assignPhotos(staff, [moved], mpho!.id);
    await assignPhotos(staff, [erased], kabo!.id);
    await assignPhotos(staff, [alone], lesedi!.id);

    const parent = await parentFor(server, shop);
    const line = (photoId: number, quantity = 1) => ({ photoId, albumId: shop.openAlbumId, product: shop.print, quantity });
    orderId = await paidOrder(server, parent, shop, [line(kept), line(group, 2), line(hidden), line(moved), line(erased)], { studentName: 'Dube family' });
    // An order whose only print is left out gets no envelope and no label.
    allLeftOut = await paidOrder(server, parent, shop, [line(alone)], { studentName: 'Tau family' });

    // After the sale: Lesedi may not be published, Mpho's photo goes to Neo, Kabo is erased.
    // (Hiding a child whose photos were sold warns first too, and goes on once confirmed.)
    expect((await staff.patch(`/api/students/${lesedi!.id}`, { doNotPublish: true })).body.code).toBe('PHOTO_SOLD');
    expect((await staff.patch(`/api/students/${lesedi!.id}`, { doNotPublish: true, confirm: true })).status).toBe(200);
    // (Moving a sold photo warns first and goes on once confirmed, docs/access.md "Moving a sold photo".)
    expect((await staff.put('/api/photos/student', { photoIds: [moved], studentId: neo!.id })).body.code).toBe('PHOTO_SOLD');
    expect((await staff.put('/api/photos/student', { photoIds: [moved], studentId: neo!.id, confirm: true })).status).toBe(200);
    expect((await staff.post(`/api/students/${kabo!.id}/erase`)).status).toBe(200);

    // Ready to batch: only what would go to the lab is counted (Neo's print and the group photo, twice).
    const ready = (await staff.get('/api/print-batches/ready')).body.find((school: { schoolId: number }) => school.schoolId === shop.schoolId);
    expect(ready).toMatchObject({ orderCount: 1, printCount: 3 });

    const batch = await staff.post('/api/print-batches', { schoolId: shop.schoolId });
    expect(batch.status).toBe(201);
    batchId = batch.body.id;
  });
  afterAll(async () => server.close());

  it('lists the left-out lines for staff, with why, and keeps them out of the order', async () => {
    const res = await staff.get(`/api/print-batches/${batchId}`);
    expect(res.status).toBe(200);
    const detail = printBatchDetailSchema.strict().parse(res.body);
    const byReason = Object.fromEntries(detail.leftOut.map((line) => [line.photoName, [line.orderId, line.reason, line.reasonText]]));
    expect(byReason).toEqual({
      'IMG_0303.JPG': [orderId, 'do_not_publish', PRINT_BATCH_MSG.leftOutReasons.do_not_publish],
      'IMG_0304.JPG': [orderId, 'not_the_child', PRINT_BATCH_MSG.leftOutReasons.not_the_child],
      'IMG_0306.JPG': [allLeftOut, 'do_not_publish', PRINT_BATCH_MSG.leftOutReasons.do_not_publish],
      [detail.leftOut.find((line) => line.reason === 'erased')?.photoName ?? 'erased line']: [orderId, 'erased', PRINT_BATCH_MSG.leftOutReasons.erased],
    });
    expect(detail.leftOut).toHaveLength(4);
    // The erased child's name appears nowhere in the batch.
    expect(JSON.stringify(detail)).not.toContain('Kabo');
    expect(detail.orders.find((order) => order.id === orderId)?.items.map((item) => item.photoName).sort()).toEqual(['GROUP_0302.JPG', 'IMG_0301.JPG']);
    expect(detail.fileCount).toBe(2);
  });

  it('counts in the batch list only what goes to the lab', async () => {
    const listed = (await staff.get('/api/print-batches')).body.find((batch: { id: number }) => batch.id === batchId);
    // One order has a print for the lab; the other's only print is left out. Prints: 1 + 2.
    expect(listed).toMatchObject({ orderCount: 1, printCount: 3 });
    expect((await staff.get(`/api/print-batches/${batchId}`)).body).toMatchObject({ orderCount: 1, printCount: 3 });
  });

  it('prints only the lines that follow the rules: no file, sheet row or MISSING.txt entry for the others', async () => {
    const res = await staff.get(`/api/print-batches/${batchId}/files.zip`);
    expect(res.status).toBe(200);
    const entries = await readZip(res.body as Buffer);
    // The group photo's file carries the order's student name, which Kabo's erasure rewrote (docs/access.md, "Erasure, completely").
    const names = entries.map((entry) => entry.name).sort();
    expect(names).toHaveLength(3);
    expect(names).toContain(`Glossy Print/${orderId}_Neo Dube_IMG_0301.JPG`);
    expect(names).toContain('order-sheet.csv');
    expect(names.some((name) => name.startsWith(`Glossy Print/${orderId}_`) && name.endsWith('_GROUP_0302_qty2.JPG'))).toBe(true);
    const sheet = entries.find((entry) => entry.name === 'order-sheet.csv')!.data.toString('utf8');
    for (const name of ['IMG_0303', 'IMG_0304', 'IMG_0305', 'IMG_0306', 'Kabo', allLeftOut]) expect(sheet).not.toContain(name);
  });

  it('packs and labels only what is printed', async () => {
    const packing = (await pdfPagesText((await staff.get(`/api/print-batches/${batchId}/packing-list.pdf`)).body as Buffer)).join('\n');
    const labels = (await pdfPagesText((await staff.get(`/api/print-batches/${batchId}/labels.pdf`)).body as Buffer)).join('\n');
    expect(packing).toContain(orderId);
    for (const text of [packing, labels]) {
      expect(text).not.toContain(allLeftOut);
      expect(text).not.toContain('IMG_0303');
      expect(text).not.toContain('IMG_0304');
      expect(text).not.toContain('Kabo');
    }
  });
});
