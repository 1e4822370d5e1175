import { expect, it } from 'vitest';
import type { Student } from '../../contract/students';
import { Client, describeApi, staffClient, startTestServer } from '../../test/harness';
import { addPhoto, createShop, orderBody, parentFor, payInitiated, payThroughSandbox, standardLines, waitUntil } from '../../test/shop';
import { agePayments } from '../../test/fixtures';
import { createMaintenance } from '../jobs/maintenance';
import { addStudents, assignPhotos, familyWith, setAccessMode } from '../students/students.test-helpers';
import { confirmations, initiate, placeOrder, withWorld } from './payments.test-helpers';

/** docs/payments.md, "Paid after cancellation". */
describeApi('an approved payment on a cancelled order', () => {
  it('is recorded and flags the order for a refund; the order stays cancelled, is not revenue, and no "confirmed" e-mail goes out', () =>
    withWorld({}, async (w) => {
      const staff = await staffClient(w.server, 'admin');
      const revenueBefore = (await staff.get('/api/dashboard/stats')).body.totalRevenue as string;
      const orderId = await placeOrder(w, 'late-payer@example.test');
      // The parent opens the card page; meanwhile staff cancel the order; then the parent pays.
      const opened = await initiate(w, orderId);
      expect(opened.status).toBe(200);
      expect((await staff.put(`/api/orders/${orderId}`, { orderStatus: 'cancelled' })).status).toBe(200);
      await payInitiated(w.server, opened.body);

      const payments = await w.server.runtime.knex('payments').where({ order_id: orderId });
      expect(payments.map((p) => p.status)).toEqual(['completed']);
      await waitUntil(async () => (await w.server.runtime.knex('orders').where({ id: orderId }).first()).paid_after_cancel > 0);
      const listed = (await staff.get('/api/orders')).body.find((o: { id: string }) => o.id === orderId);
      expect(listed).toMatchObject({ orderStatus: 'cancelled', paidAfterCancel: 1, duplicatePayments: 0 });
      expect(listed.paymentStatus).not.toBe('completed');
      expect(listed.items.every((item: { downloadUrl: string | null }) => item.downloadUrl === null)).toBe(true);
      const notes = (await w.server.runtime.knex('payment_callbacks').where({ payment_id: payments[0].id })).map((c) => c.outcome);
      expect(notes.some((n) => n.endsWith('paid after cancel, refund'))).toBe(true);
      expect((await staff.get('/api/dashboard/stats')).body.totalRevenue).toBe(revenueBefore);
      // Nothing to confirm: the order was cancelled.
      await w.mail.noMoreThan(0, { match: (m) => m.subject.includes(orderId), within: 300 });
      expect(confirmations(w, orderId)).toHaveLength(0);
      // The parent, who paid, still finds the order in My Orders (it is owed a refund).
      const customer = await w.server.runtime.knex('orders').where({ id: orderId }).first('customer_id');
      const mine = await w.parent.withToken(w.server.runtime.tokens.signCustomer({ id: Number(customer.customer_id) })).get('/api/customer/orders');
      expect(mine.body.map((o: { id: string }) => o.id)).toContain(orderId);
    }));
});

describeApi('erasure and open payments', () => {
  it('does not cancel an order whose payment is still open; it still cancels one with no payment under way', async () => {
    const server = await startTestServer({ SANDBOX_SUPPRESS_NOTIFY: 'true' });
    try {
      const staff = await staffClient(server, 'admin'); // erasure and the access-mode switch are an administrator's (docs/accounts.md)
      const shop = await createShop(server);
      await setAccessMode(staff, shop.schoolId, 'student_codes');
      const [kabo] = (await addStudents(staff, shop.openAlbumId, ['Kabo Ramotswe'])) as [Student];
      const photo = await addPhoto(server, shop.openAlbumId, 'IMG_0801.JPG');
      await assignPhotos(staff, [photo], kabo.id);
      const family = await familyWith(server, kabo.code);
      const place = async () => {
        const res = await family.post('/api/orders', orderBody(shop, [{ photoId: photo, albumId: shop.openAlbumId, product: shop.print, quantity: 1 }]));
        expect(res.status).toBe(201);
        return res.body.order.id as string;
      };
      const paying = await place();
      const idle = await place();
      // The parent is on the card page of `paying` (the request is open at the gateway).
      expect((await new Client(server.url).post('/api/payment/initiate', { orderId: paying })).status).toBe(200);

      expect((await staff.post(`/api/students/${kabo.id}/erase`)).status).toBe(200);
      const statusOf = async (id: string) => (await server.runtime.knex('orders').where({ id }).first()).order_status;
      expect(await statusOf(idle)).toBe('cancelled');
      expect(await statusOf(paying)).toBe('pending');
    } finally {
      await server.close();
    }
  });
});

describeApi('the payment sweep', () => {
  it('reaches a lost notify behind more than 50 abandoned payments (no starvation)', async () => {
    const server = await startTestServer({ SANDBOX_SUPPRESS_NOTIFY: 'true', PAYMENT_QUERY_INTERVAL_MS: '3600000' });
    try {
      const shop = await createShop(server);
      const parent = await parentFor(server, shop);
      const abandonedOrder = (await parent.post('/api/orders', orderBody(shop, standardLines(shop)))).body.order.id as string;
      const lost = (await parent.post('/api/orders', orderBody(shop, standardLines(shop)))).body.order.id as string;
      // 60 payments a day's parents opened and left (older than the lost one), then one paid whose notify was lost.
      const at = Date.now() - 10 * 60_000;
      await server.runtime.knex('payments').insert(
        Array.from({ length: 60 }, (_, i) => ({
          order_id: abandonedOrder,
          gateway: 'sandbox',
          paygate_id: '10011072130',
          pay_request_id: `ABANDONED-${i}`,
          reference: abandonedOrder,
          amount_thebe: 100,
          currency: 'BWP',
          status: 'initiated',
          created_at: at + i,
          updated_at: at + i,
        })),
      );
      await payThroughSandbox(server, lost, { followReturn: false });
      await agePayments(server, lost, 5 * 60_000);
      const maintenance = createMaintenance(server.runtime);
      expect(await maintenance.sweepPayments()).toBe(true);
      expect(await maintenance.sweepPayments()).toBe(true);
      expect((await server.runtime.knex('orders').where({ id: lost }).first()).payment_status).toBe('completed');
      // Every abandoned one was asked too, once.
      expect(await server.runtime.knex('payments').where({ order_id: abandonedOrder }).whereNull('last_queried_at')).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
