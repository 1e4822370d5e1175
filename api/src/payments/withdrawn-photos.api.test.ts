/**
 * A withdrawn photo is never charged, a parent cannot cancel while a received payment may settle,
 * a sold photo is not moved or withheld without a warning, and the refunds owed count withdrawn
 * paid lines (docs/payments.md, "Withdrawn photos are never charged"; docs/access.md, "Moving a sold
 * photo"; docs/statuses.md; docs/reports.md).
 */
import { expect, it } from 'vitest';
import { SOLD_PHOTO_MSG, WITHDRAWN_MSG } from '../../contract/withdrawn-photos';
import type { Student } from '../../contract/students';
import { describeApi, staffClient } from '../../test/harness';
import { orderBody, payByBankTransfer, payInitiated, settleInSandbox, waitUntil, type Line } from '../../test/shop';
import { markOrderPaid } from '../../test/fixtures';
import { pdfPagesText } from '../../test/pdf';
import { addStudents } from '../students/students.test-helpers';
import { initiate, withWorld, type World } from './payments.test-helpers';

const place = async (w: World, lines: Line[], email = 'withdrawn@example.test'): Promise<string> => {
  const res = await w.parent.post('/api/orders', orderBody(w.shop, lines, { customerEmail: email }));
  expect(res.status).toBe(201);
  return res.body.order.id as string;
};
/** A print of the shop's first photo and a digital copy of its second ("Photo 424"). */
const twoLines = (w: World): Line[] => [
  { photoId: w.shop.photoIds[0]!, albumId: w.shop.openAlbumId, product: w.shop.print, quantity: 1 },
  { photoId: w.shop.photoIds[1]!, albumId: w.shop.openAlbumId, product: w.shop.digital, quantity: 1 },
];

describeApi('a withdrawn photo is never charged', () => {
  it('initiate answers 409 ORDER_PHOTOS_WITHDRAWN naming the lines, for a photo in the tray, waiting for review, of a draft class or of a do-not-publish child', () =>
    withWorld({}, async (w) => {
      const staff = await staffClient(w.server, 'admin');
      const knex = w.server.runtime.knex;
      const withdrawnPhoto = w.shop.photoIds[1]!;
      const expectRefused = async (orderId: string) => {
        const res = await initiate(w, orderId);
        expect(res.status).toBe(409);
        const line = { photoName: 'Photo 424', productName: w.shop.digital.name };
        expect(res.body).toMatchObject({ code: 'ORDER_PHOTOS_WITHDRAWN', lines: [line], message: WITHDRAWN_MSG.orderPhotosWithdrawn([WITHDRAWN_MSG.lineName('Photo 424', w.shop.digital.name)]) });
        expect(await knex('payments').where({ order_id: orderId }).first('id')).toBeUndefined();
        expect(await knex('orders').where({ id: orderId }).first('payment_claimed_until')).toEqual({ payment_claimed_until: null });
      };

      // Put back in the tray after the order was placed (nobody paid: no warning).
      const trayed = await place(w, twoLines(w));
      expect((await staff.put('/api/photos/tray', { photoIds: [withdrawnPhoto] })).status).toBe(200);
      await expectRefused(trayed);
      await knex('photos').where({ id: withdrawnPhoto }).update({ in_tray: false });
      expect((await initiate(w, trayed)).status).toBe(200);

      // Waiting for review, and its class back to draft.
      const reviewed = await place(w, twoLines(w));
      await knex('photos').where({ id: withdrawnPhoto }).update({ pending_review: true });
      await expectRefused(reviewed);
      await knex('photos').where({ id: withdrawnPhoto }).update({ pending_review: false });
      const drafted = await place(w, twoLines(w));
      const split = await staff.post(`/api/albums`, { schoolId: w.shop.schoolId, name: 'Class 9Z' });
      expect(split.status).toBe(201);
      await knex('photos').where({ id: withdrawnPhoto }).update({ album_id: split.body.id });
      await knex('albums').where({ id: split.body.id }).update({ status: 'draft', publish_at: null });
      await expectRefused(drafted);
      await knex('photos').where({ id: withdrawnPhoto }).update({ album_id: w.shop.openAlbumId });

      // A child marked do not publish.
      const [child] = (await addStudents(staff, w.shop.openAlbumId, ['Neo Kgosi'])) as [Student];
      await knex('photos').where({ id: withdrawnPhoto }).update({ student_id: child.id });
      const dnp = await place(w, twoLines(w));
      await knex('students').where({ id: child.id }).update({ do_not_publish: true });
      await expectRefused(dnp);
    }));

  it('an approval that arrives anyway pays the order, flags the withdrawn line for a refund, and the confirmation says it will not be delivered', () =>
    withWorld({}, async (w) => {
      const staff = await staffClient(w.server, 'admin');
      const knex = w.server.runtime.knex;
      const orderId = await place(w, twoLines(w), 'paid-anyway@example.test');
      const opened = await initiate(w, orderId);
      expect(opened.status).toBe(200);
      // Withdrawn while the card page is open (the order is not paid yet: no warning).
      expect((await staff.put('/api/photos/tray', { photoIds: [w.shop.photoIds[1]] })).status).toBe(200);
      await payInitiated(w.server, opened.body);

      await waitUntil(async () => (await knex('orders').where({ id: orderId }).first()).payment_status === 'completed');
      const row = await knex('orders').where({ id: orderId }).first();
      expect(Number(row.paid_with_withdrawn)).toBe(1);
      const shown = await staff.get(`/api/orders/${orderId}`);
      expect(shown.body).toMatchObject({ paymentStatus: 'completed', paidWithWithdrawn: 1 });
      expect(shown.body.items.find((item: { photoId: number }) => item.photoId === w.shop.photoIds[1])).toMatchObject({ withdrawn: true, downloadUrl: null });
      const payment = await knex('payments').where({ order_id: orderId }).first('id');
      const notes = (await knex('payment_callbacks').where({ payment_id: payment.id })).map((c) => String(c.outcome));
      expect(notes.some((note) => note.includes('1 withdrawn, refund'))).toBe(true);

      const [mail] = await w.mail.waitForMessages(1, { match: (m) => m.subject.includes(orderId) });
      expect(mail!.text).toContain(WITHDRAWN_MSG.notDeliveredIntro);
      expect(mail!.text).toContain(WITHDRAWN_MSG.notDeliveredLine(1, w.shop.digital.name, 'Photo 424'));
      const notDelivered = mail!.text.slice(mail!.text.indexOf(`${WITHDRAWN_MSG.notDeliveredTitle}:`));
      expect(notDelivered).not.toContain('Photo 423');
    }));
});

describeApi('a parent cannot cancel an order whose payment may still settle', () => {
  it('refuses with 409 PAYMENT_MAY_STILL_SETTLE while a bank transfer is received, and cancels once it was declined', () =>
    withWorld({ PAYMENT_METHODS: 'card,bank_transfer', SANDBOX_FINAL_NOTIFY: 'none' }, async (w) => {
      const knex = w.server.runtime.knex;
      const orderId = await place(w, twoLines(w), 'transfer@example.test');
      const paid = await payByBankTransfer(w.server, orderId);
      expect((await knex('payments').where({ order_id: orderId }).first()).status).toBe('pending');

      const refused = await w.parent.post(`/api/orders/${orderId}/cancel`);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'PAYMENT_MAY_STILL_SETTLE', message: WITHDRAWN_MSG.cancelWhileSettling });
      expect((await knex('orders').where({ id: orderId }).first()).order_status).toBe('pending');

      expect((await settleInSandbox(w.server, paid.payRequestId, 'decline')).status).toBe(200);
      await waitUntil(async () => (await knex('payments').where({ order_id: orderId }).first()).status === 'failed');
      const cancelled = await w.parent.post(`/api/orders/${orderId}/cancel`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.status).toBe('cancelled');
    }));
});

describeApi('moving or withholding a sold photo warns first', () => {
  it('answers 409 PHOTO_SOLD naming the order and its print batch until confirmed; confirmed, the batch documents are marked changed', () =>
    withWorld({}, async (w) => {
      const staff = await staffClient(w.server, 'admin');
      const knex = w.server.runtime.knex;
      const [printed, digital] = w.shop.photoIds as [number, number];
      const orderId = await place(w, twoLines(w), 'sold@example.test');
      await markOrderPaid(w.server, orderId);
      const photo = (id: number) => knex('photos').where({ id }).first('student_id', 'in_tray', 'kind');

      // Not batched yet: the warning names the order and says what will happen.
      const tray = await staff.put('/api/photos/tray', { photoIds: [digital] });
      expect(tray.status).toBe(409);
      expect(tray.body).toMatchObject({ code: 'PHOTO_SOLD', orders: [orderId], batches: [], photoIds: [digital], message: SOLD_PHOTO_MSG.warning([orderId], []) });
      expect(tray.body.message).toContain('"withdrawn"');
      expect(Boolean(Number((await photo(digital)).in_tray))).toBe(false);
      // A confirm that is not a boolean is a 400 naming it.
      const bad = await staff.put('/api/photos/tray', { photoIds: [digital], confirm: 'yes' });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toHaveProperty('confirm');

      // In a print batch: the warning says which one, for a move to a child, the tray or a card.
      const batch = await staff.post('/api/print-batches', { schoolId: w.shop.schoolId });
      expect(batch.status).toBe(201);
      const batchId = batch.body.id as number;
      expect(batch.body.documentsChangedAt).toBeNull();
      const [child] = (await addStudents(staff, w.shop.openAlbumId, ['Mpho Tau'])) as [Student];
      const attempts = [
        await staff.put('/api/photos/student', { photoIds: [printed], studentId: child.id }),
        await staff.put('/api/photos/tray', { photoIds: [printed] }),
        await staff.put('/api/photos/card', { photoIds: [printed] }),
      ];
      for (const res of attempts) {
        expect(res.status).toBe(409);
        expect(res.body).toMatchObject({ code: 'PHOTO_SOLD', orders: [orderId], batches: [batchId], message: SOLD_PHOTO_MSG.warning([orderId], [batchId]) });
        expect(res.body.message).toContain(`already in batch #${batchId} for the lab`);
      }
      expect(await photo(printed)).toMatchObject({ student_id: null, kind: 'photo' });
      expect((await staff.get(`/api/print-batches/${batchId}`)).body.documentsChangedAt).toBeNull();
      // Giving it to the child it was sold for is no withdrawal: no warning.
      expect((await staff.put('/api/photos/student', { photoIds: [printed], studentId: null })).status).toBe(200);

      // Confirmed: moved, and the batch's packing list and labels say they changed.
      const moved = await staff.put('/api/photos/student', { photoIds: [printed], studentId: child.id, confirm: true });
      expect(moved.status).toBe(200);
      expect((await photo(printed)).student_id).toBe(child.id);
      const changed = await staff.get(`/api/print-batches/${batchId}`);
      expect(changed.body.documentsChangedAt).not.toBeNull();
      for (const file of ['packing-list.pdf', 'labels.pdf']) {
        const res = await staff.get(`/api/print-batches/${batchId}/${file}`);
        expect(res.status).toBe(200);
        const text = (await pdfPagesText(res.body as Buffer)).join(' ').replace(/\s+/g, ' ');
        expect(text).toContain('CHANGED');
      }
      // The family sees it withdrawn, and staff's order says it moved after the sale.
      const shown = await staff.get(`/api/orders/${orderId}`);
      expect(shown.body.movedPhotos).toBe(1);
    }));
});

describeApi('refunds owed count withdrawn and moved paid lines', () => {
  it('a paid line moved to the tray after the sale is owed back its revenue', () =>
    withWorld({}, async (w) => {
      const staff = await staffClient(w.server, 'admin');
      const orderId = await place(w, twoLines(w), 'refund@example.test');
      await markOrderPaid(w.server, orderId);
      const before = (await staff.get('/api/reports/schools')).body.schools.find((s: { schoolId: number }) => s.schoolId === w.shop.schoolId);
      expect(before).toMatchObject({ refundOrders: 0, refundThebe: 0 });

      expect((await staff.put('/api/photos/tray', { photoIds: [w.shop.photoIds[1]], confirm: true })).status).toBe(200);
      const after = (await staff.get('/api/reports/schools')).body;
      const school = after.schools.find((s: { schoolId: number }) => s.schoolId === w.shop.schoolId);
      expect(school).toMatchObject({ refundOrders: 1, refundThebe: w.shop.digital.priceThebe });
      expect(school.classes.find((c: { albumId: number }) => c.albumId === w.shop.openAlbumId)).toMatchObject({ refundOrders: 1, refundThebe: w.shop.digital.priceThebe });
      expect(after.totals).toMatchObject({ refundOrders: 1, refundThebe: w.shop.digital.priceThebe });
      // Back with its child, nothing is owed.
      await w.server.runtime.knex('photos').where({ id: w.shop.photoIds[1] }).update({ in_tray: false });
      expect((await staff.get('/api/reports/schools')).body.totals).toMatchObject({ refundOrders: 0, refundThebe: 0 });
    }));
});
