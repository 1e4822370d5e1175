import { expect, it } from 'vitest';
import { COUPON_MSG } from '../../contract/messages';
import { Client, describeApi, staffClient } from '../../test/harness';
import { createShop, orderBody, parentFor, payThroughSandbox, standardLines, waitUntil } from '../../test/shop';
import { localDate } from '../outreach/send-window';
import { confirmations, withWorld } from '../payments/payments.test-helpers';

const DAY_MS = 24 * 3600_000;

/**
 * Coupons at checkout over HTTP (docs/packages-and-coupons.md, "Counting a coupon's uses"): the
 * standard lines are 2 x P30.00 + 1 x P17.50 = P77.50; 20% off is P15.50, so P62.00 is charged.
 */
describeApi('coupons at checkout', () => {
  it('20 concurrent checkouts with a coupon of 5 uses: exactly 5 orders carry the discount; paid, the coupon shows 5 uses', () =>
    withWorld({}, async (w) => {
      const { server, shop } = w;
      const staff = await staffClient(server, 'admin');
      const coupon = (await staff.post('/api/coupons', { code: 'FIRST-FIVE', schoolId: shop.schoolId, kind: 'percent', value: 20, maxUses: 5 })).body;
      const body = (i: number) => orderBody(shop, standardLines(shop), { customerEmail: `rush-${i}@example.test`, couponCode: 'first-five', totalAmount: '62.00' });

      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => w.parent.post('/api/orders', body(i))));
      const placed = answers.filter((res) => res.status === 201);
      expect(placed).toHaveLength(5);
      for (const res of placed) expect(res.body.order).toMatchObject({ couponCode: 'FIRST-FIVE', couponDiscount: '15.50', subtotal: '77.50', totalAmount: '62.00' });
      const refused = answers.filter((res) => res.status !== 201);
      expect(refused.map((res) => [res.status, res.body.code, res.body.message])).toEqual(Array.from({ length: 15 }, () => [409, 'COUPON_USED_UP', COUPON_MSG.usedUp]));
      expect((await staff.get(`/api/coupons/${coupon.id}`)).body).toMatchObject({ usesHeld: 5, usesPaid: 0, active: false });

      for (const res of placed) await payThroughSandbox(server, res.body.order.id);
      const ids = placed.map((res) => res.body.order.id as string);
      await waitUntil(async () => (await server.runtime.knex('orders').whereIn('id', ids).where({ payment_status: 'completed' })).length === 5);
      expect((await staff.get(`/api/coupons/${coupon.id}`)).body).toMatchObject({ usesHeld: 0, usesPaid: 5 });
      const discounted = await server.runtime.knex('orders').where({ coupon_id: coupon.id });
      expect(discounted.map((o) => [Number(o.coupon_discount_thebe), Number(o.total_thebe)])).toEqual(Array.from({ length: 5 }, () => [1550, 6200]));
      // What the gateway charged is each order's total.
      const payments = await server.runtime.knex('payments').whereIn('order_id', ids).where({ status: 'completed' });
      expect(payments.map((p) => Number(p.amount_thebe))).toEqual([6200, 6200, 6200, 6200, 6200]);
    }));

  it('refuses an expired coupon, another school\'s and an unknown code, writing nothing', () =>
    withWorld({}, async (w) => {
      const { server, shop } = w;
      const staff = await staffClient(server, 'admin');
      const other = await createShop(server);
      await staff.post('/api/coupons', { code: 'LAST-WEEK', kind: 'percent', value: 20, endsOn: localDate(Date.now() - 7 * DAY_MS) });
      await staff.post('/api/coupons', { code: 'NOT-YOURS', schoolId: other.schoolId, kind: 'percent', value: 20 });
      const tries: [string, number, string, string][] = [
        ['LAST-WEEK', 409, 'COUPON_EXPIRED', COUPON_MSG.expired],
        ['NOT-YOURS', 400, 'COUPON_INVALID', COUPON_MSG.notValid],
        ['NO-SUCH-CODE', 400, 'COUPON_INVALID', COUPON_MSG.notValid],
      ];
      for (const [code, status, errorCode, message] of tries) {
        const res = await w.parent.post('/api/orders', orderBody(shop, standardLines(shop), { couponCode: code, totalAmount: '62.00' }));
        expect({ code, status: res.status, errorCode: res.body.code, message: res.body.message }).toEqual({ code, status, errorCode, message });
      }
      expect(await server.runtime.knex('orders')).toHaveLength(0);
      expect(await server.runtime.knex('coupon_redemptions')).toHaveLength(0);
      // The other school's parents may use theirs.
      const theirs = await parentFor(server, other);
      expect((await theirs.post('/api/orders', orderBody(other, standardLines(other), { couponCode: 'not-yours', totalAmount: '62.00' }))).status).toBe(201);
    }));

  it('a 100% coupon: the order totals P0.00 and is paid at once without the gateway', () =>
    withWorld({}, async (w) => {
      const { server, shop } = w;
      const staff = await staffClient(server, 'admin');
      const coupon = (await staff.post('/api/coupons', { code: 'ON-THE-HOUSE', kind: 'percent', value: 100 })).body;
      const placed = await w.parent.post('/api/orders', orderBody(shop, standardLines(shop), { couponCode: 'ON-THE-HOUSE', totalAmount: '0.00' }));
      expect(placed.status).toBe(201);
      const orderId = placed.body.order.id as string;
      expect(placed.body.order).toMatchObject({ subtotal: '77.50', couponDiscount: '77.50', totalAmount: '0.00' });
      const initiated = await new Client(server.url).post('/api/payment/initiate', { orderId });
      expect(initiated.body).toEqual({ success: true, redirectUrl: `/order-confirmation/${orderId}` });
      expect((await staff.get(`/api/orders/${orderId}`)).body).toMatchObject({ paymentStatus: 'completed', orderStatus: 'paid', testPayment: false });
      expect((await staff.get(`/api/coupons/${coupon.id}`)).body).toMatchObject({ usesHeld: 0, usesPaid: 1 });
      await waitUntil(async () => confirmations(w, orderId).length === 1);
    }));
});
