/**
 * Withholding a whole child or class warns like moving a sold photo: marking a child do not
 * publish, or putting a published class back to draft, while families paid for photos of it they
 * still have, answers 409 PHOTO_SOLD until staff confirm; confirmed, the print batches holding
 * those lines print a CHANGED line (docs/access.md, "Moving a sold photo").
 */
import { expect, it } from 'vitest';
import { SOLD_PHOTO_MSG } from '../../contract/withdrawn-photos';
import type { Student } from '../../contract/students';
import { describeApi, staffClient, type Client } from '../../test/harness';
import { orderBody, type Line } from '../../test/shop';
import { markOrderPaid } from '../../test/fixtures';
import { pdfPagesText } from '../../test/pdf';
import { addStudents } from '../students/students.test-helpers';
import { withWorld, type World } from './payments.test-helpers';

const place = async (w: World, lines: Line[]): Promise<string> => {
  const res = await w.parent.post('/api/orders', orderBody(w.shop, lines));
  expect(res.status).toBe(201);
  return res.body.order.id as string;
};
/** A print of the shop's first photo and a digital copy of its second. */
const twoLines = (w: World): Line[] => [
  { photoId: w.shop.photoIds[0]!, albumId: w.shop.openAlbumId, product: w.shop.print, quantity: 1 },
  { photoId: w.shop.photoIds[1]!, albumId: w.shop.openAlbumId, product: w.shop.digital, quantity: 1 },
];

/** The batch's packing list and labels, as text. */
const batchDocuments = async (staff: Client, batchId: number): Promise<string[]> =>
  Promise.all(
    ['packing-list.pdf', 'labels.pdf'].map(async (file) => {
      const res = await staff.get(`/api/print-batches/${batchId}/${file}`);
      expect(res.status).toBe(200);
      return (await pdfPagesText(res.body as Buffer)).join(' ').replace(/\s+/g, ' ');
    }),
  );

/** A paid order for both photos, and the school's print batch that took it to the lab. */
async function soldAndBatched(w: World, admin: Client): Promise<{ orderId: string; batchId: number }> {
  const orderId = await place(w, twoLines(w));
  await markOrderPaid(w.server, orderId);
  const batch = await admin.post('/api/print-batches', { schoolId: w.shop.schoolId });
  expect(batch.status).toBe(201);
  expect(batch.body.documentsChangedAt).toBeNull();
  return { orderId, batchId: batch.body.id as number };
}

describeApi('withholding a child or a class whose photos were sold warns first', () => {
  it('do not publish on a child with paid photos answers 409 PHOTO_SOLD until confirmed; confirmed, the batch documents change; clearing stays admin-only', () =>
    withWorld({}, async (w) => {
      const admin = await staffClient(w.server, 'admin');
      const photographer = await staffClient(w.server, 'photographer');
      const knex = w.server.runtime.knex;
      const [first, second] = w.shop.photoIds as [number, number];
      const [neo, mpho] = (await addStudents(admin, w.shop.openAlbumId, ['Neo Kgosi', 'Mpho Tau'])) as [Student, Student];
      expect((await admin.put('/api/photos/student', { photoIds: [first, second], studentId: neo.id })).status).toBe(200);

      // An unpaid order is no sale: no warning.
      const unpaid = await place(w, twoLines(w));
      expect((await photographer.patch(`/api/students/${mpho.id}`, { doNotPublish: true })).status).toBe(200);
      const { orderId, batchId } = await soldAndBatched(w, admin);
      expect(orderId).not.toBe(unpaid);

      // A photographer marks Neo do not publish: refused, naming the paid order and its batch, nothing changed.
      const warned = await photographer.patch(`/api/students/${neo.id}`, { doNotPublish: true });
      expect(warned.status).toBe(409);
      expect(warned.body).toMatchObject({
        code: 'PHOTO_SOLD',
        orders: [orderId],
        batches: [batchId],
        photoIds: [first, second],
        message: SOLD_PHOTO_MSG.warning([orderId], [batchId], 'child'),
      });
      expect(warned.body.message).toContain('"withdrawn"');
      expect(warned.body.message).toContain('refund');
      expect(warned.body.message).toContain(`already in batch #${batchId} for the lab`);
      expect(Number((await knex('students').where({ id: neo.id }).first('do_not_publish')).do_not_publish)).toBe(0);
      expect((await admin.get(`/api/print-batches/${batchId}`)).body.documentsChangedAt).toBeNull();
      expect(await knex('audit_log').where({ action: 'do_not_publish_set', target_id: neo.id }).first()).toBeUndefined();
      // Other changes of the child need no confirmation; a confirm that is not a boolean is a 400 naming it.
      expect((await photographer.patch(`/api/students/${neo.id}`, { number: '12' })).status).toBe(200);
      const bad = await photographer.patch(`/api/students/${neo.id}`, { doNotPublish: true, confirm: 'yes' });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toHaveProperty('confirm');

      // Confirmed: hidden, written to the audit log, the order's lines withdrawn, the batch's documents marked changed.
      const hidden = await photographer.patch(`/api/students/${neo.id}`, { doNotPublish: true, confirm: true });
      expect(hidden.status).toBe(200);
      expect(hidden.body.doNotPublish).toBe(true);
      expect(await knex('audit_log').where({ action: 'do_not_publish_set', target_id: neo.id }).first()).toBeDefined();
      expect((await admin.get(`/api/print-batches/${batchId}`)).body.documentsChangedAt).not.toBeNull();
      for (const text of await batchDocuments(admin, batchId)) expect(text).toContain('CHANGED');
      const order = await admin.get(`/api/orders/${orderId}`);
      expect(order.body.items.map((item: { withdrawn: boolean }) => item.withdrawn)).toEqual([true, true]);

      // Lines already withdrawn are not asked about again: the class back to draft warns of nothing.
      expect((await photographer.patch(`/api/albums/${w.shop.openAlbumId}`, { status: 'draft' })).status).toBe(200);
      expect((await photographer.patch(`/api/albums/${w.shop.openAlbumId}`, { status: 'published' })).status).toBe(200);

      // Clearing do not publish stays an admin's decision, and needs no warning.
      expect((await photographer.patch(`/api/students/${neo.id}`, { doNotPublish: false, confirm: true })).body.code).toBe('ADMIN_ONLY');
      const cleared = await admin.patch(`/api/students/${neo.id}`, { doNotPublish: false });
      expect(cleared.status).toBe(200);
      expect(cleared.body.doNotPublish).toBe(false);
    }));

  it('a published class back to draft with paid photos answers 409 PHOTO_SOLD until confirmed; confirmed, the batch documents change', () =>
    withWorld({}, async (w) => {
      const admin = await staffClient(w.server, 'admin');
      const photographer = await staffClient(w.server, 'photographer');
      const albumId = w.shop.openAlbumId;
      const status = async () => (await w.server.runtime.knex('albums').where({ id: albumId }).first('status')).status as string;

      // Only an unpaid order: back to draft and published again without a warning.
      await place(w, twoLines(w));
      expect((await photographer.patch(`/api/albums/${albumId}`, { status: 'draft' })).status).toBe(200);
      expect((await photographer.patch(`/api/albums/${albumId}`, { status: 'published' })).status).toBe(200);

      const { orderId, batchId } = await soldAndBatched(w, admin);
      // Back to draft (also with a time to publish itself again): refused, nothing changed.
      for (const body of [{ status: 'draft' }, { status: 'draft', publishAt: new Date(Date.now() + 86_400_000).toISOString() }]) {
        const warned = await photographer.patch(`/api/albums/${albumId}`, body);
        expect(warned.status).toBe(409);
        expect(warned.body).toMatchObject({
          code: 'PHOTO_SOLD',
          orders: [orderId],
          batches: [batchId],
          photoIds: [...w.shop.photoIds.slice(0, 2)].sort((a, b) => a - b),
          message: SOLD_PHOTO_MSG.warning([orderId], [batchId], 'class'),
        });
        expect(warned.body.message).toContain(`already in batch #${batchId} for the lab`);
      }
      expect(await status()).toBe('published');
      expect((await admin.get(`/api/print-batches/${batchId}`)).body.documentsChangedAt).toBeNull();
      // Renaming or archiving the published class takes nothing from the families: no warning.
      expect((await photographer.patch(`/api/albums/${albumId}`, { name: 'Class 1A (2026)' })).status).toBe(200);
      expect((await photographer.patch(`/api/albums/${albumId}`, { archived: true })).status).toBe(200);
      expect((await photographer.patch(`/api/albums/${albumId}`, { archived: false })).status).toBe(200);

      // Confirmed: a draft, the order's lines withdrawn, the batch's documents marked changed.
      const drafted = await photographer.patch(`/api/albums/${albumId}`, { status: 'draft', confirm: true });
      expect(drafted.status).toBe(200);
      expect(drafted.body.status).toBe('draft');
      expect((await admin.get(`/api/print-batches/${batchId}`)).body.documentsChangedAt).not.toBeNull();
      for (const text of await batchDocuments(admin, batchId)) expect(text).toContain('CHANGED');
      const order = await admin.get(`/api/orders/${orderId}`);
      expect(order.body.items.map((item: { withdrawn: boolean }) => item.withdrawn)).toEqual([true, true]);
      // A draft scheduled or edited again is no new withdrawal.
      expect((await photographer.patch(`/api/albums/${albumId}`, { publishAt: new Date(Date.now() + 86_400_000).toISOString() })).status).toBe(200);
    }));
});
