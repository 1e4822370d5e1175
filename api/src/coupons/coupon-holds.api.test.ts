import { expect, it } from 'vitest';
import { COUPON_MSG } from '../../contract/messages';
import { COUPON_HOLD_MSG } from '../../contract/order-limits';
import { Client, describeApi, staffClient } from '../../test/harness';
import { initiatePayment, orderBody, payByBankTransfer, payInitiated, settleInSandbox, standardLines, waitUntil } from '../../test/shop';
import { withWorld, type World } from '../payments/payments.test-helpers';

const HOUR_MS = 3600_000;

/**
 * A coupon cannot be used up by orders nobody pays (docs/packages-and-coupons.md, "Holds that
 * lapse" and "Paying after a hold lapsed"). The standard lines are P77.50; 20% off is P15.50, so
 * P62.00 is charged.
 */
describeApi('coupon uses held by unpaid orders', () => {
  async function setUp(w: World, fields: Record<string, unknown>) {
    const staff = await staffClient(w.server, 'admin');
    const created = await staff.post('/api/coupons', { code: 'HOLD-TEST', schoolId: w.shop.schoolId, kind: 'percent', value: 20, ...fields });
    expect(created.status).toBe(201);
    const place = (email: string) => w.parent.post('/api/orders', orderBody(w.shop, standardLines(w.shop), { customerEmail: email, couponCode: 'HOLD-TEST', totalAmount: '62.00' }));
    const uses = async () => {
      const body = (await staff.get(`/api/coupons/${created.body.id}`)).body as { usesHeld: number; usesPaid: number };
      return { usesHeld: body.usesHeld, usesPaid: body.usesPaid };
    };
    /** Moves an order (and its payments) `ms` into the past. */
    const age = async (orderId: string, ms: number) => {
      const knex = w.server.runtime.knex;
      const order = await knex('orders').where({ id: orderId }).first('created_at');
      await knex('orders').where({ id: orderId }).update({ created_at: Number(order.created_at) - ms });
      for (const payment of await knex('payments').where({ order_id: orderId }).select('id', 'created_at')) {
        await knex('payments').where({ id: payment.id }).update({ created_at: Number(payment.created_at) - ms });
      }
    };
    return { staff, place, uses, age };
  }

  it('an unpaid order with no payment opened holds its use for COUPON_HOLD_MINUTES, then another family gets it; the first cannot pay it then', () =>
    withWorld({}, async (w) => {
      const { place, uses, age } = await setUp(w, { maxUses: 1 });
      const stranger = await place('stranger@example.test');
      expect(stranger.status).toBe(201);
      expect(await uses()).toEqual({ usesHeld: 1, usesPaid: 0 });
      // Within the hour the use stays held.
      await age(stranger.body.order.id, 59 * 60_000);
      const early = await place('family@example.test');
      expect([early.status, early.body.code, early.body.message]).toEqual([409, 'COUPON_USED_UP', COUPON_MSG.usedUp]);

      // Past 60 minutes it lapses: the family's order takes it.
      await age(stranger.body.order.id, 2 * 60_000);
      const family = await place('family@example.test');
      expect(family.status, JSON.stringify(family.body)).toBe(201);
      expect(family.body.order).toMatchObject({ couponCode: 'HOLD-TEST', totalAmount: '62.00' });
      expect(await uses()).toEqual({ usesHeld: 1, usesPaid: 0 });
      const held = await w.server.runtime.knex('coupon_redemptions').select('order_id');
      expect(held.map((row) => row.order_id)).toEqual([family.body.order.id]);

      // The lapsed order cannot be paid with the coupon now: 409 naming why, and no payment opened.
      const late = await new Client(w.server.url).post('/api/payment/initiate', { orderId: stranger.body.order.id });
      expect([late.status, late.body.code, late.body.message]).toEqual([409, 'COUPON_USED_UP', COUPON_HOLD_MSG.lapsedUsedUp]);
      expect(await w.server.runtime.knex('payments').where({ order_id: stranger.body.order.id })).toHaveLength(0);
      expect(await uses()).toEqual({ usesHeld: 1, usesPaid: 0 });
    }));

  it('a payment cancelled on the card page gives the use back at once; a lapsed order whose coupon still has uses takes one again and pays', () =>
    withWorld({}, async (w) => {
      const { place, uses, age } = await setUp(w, { maxUses: 2 });
      const first = await place('first@example.test');
      await payInitiated(w.server, await initiatePayment(w.server, first.body.order.id), { cancel: true });
      expect(await uses()).toEqual({ usesHeld: 0, usesPaid: 0 });
      expect(await w.server.runtime.knex('coupon_redemptions')).toHaveLength(0);

      // Another order lapses and is given back by the background sweep.
      const second = await place('second@example.test');
      await age(second.body.order.id, 61 * 60_000);
      expect(await uses()).toEqual({ usesHeld: 1, usesPaid: 0 });
      expect(await w.server.runtime.services.coupons.releaseLapsedHolds()).toBe(1);
      expect(await uses()).toEqual({ usesHeld: 0, usesPaid: 0 });

      // Both come back to pay: each takes a use again when its payment is opened, and pays.
      for (const order of [first, second]) await payInitiated(w.server, await initiatePayment(w.server, order.body.order.id));
      const ids = [first.body.order.id as string, second.body.order.id as string];
      await waitUntil(async () => (await w.server.runtime.knex('orders').whereIn('id', ids).where({ payment_status: 'completed' })).length === 2);
      expect(await uses()).toEqual({ usesHeld: 0, usesPaid: 2 });

      // A third family finds the coupon used up.
      const third = await place('third@example.test');
      expect([third.status, third.body.code]).toEqual([409, 'COUPON_USED_UP']);
    }));

  it('a received bank transfer keeps its use held past the hour until it settles', () =>
    withWorld({ PAYMENT_METHODS: 'card,bank_transfer', SANDBOX_FINAL_NOTIFY: 'none' }, async (w) => {
      const { place, uses, age } = await setUp(w, { maxUses: 1 });
      const order = await place('transfer@example.test');
      const paid = await payByBankTransfer(w.server, order.body.order.id);
      expect(paid.transactionStatus).toBe(5);
      await age(order.body.order.id, 3 * HOUR_MS);
      expect(await w.server.runtime.services.coupons.releaseLapsedHolds()).toBe(0);
      const other = await place('other@example.test');
      expect([other.status, other.body.code]).toEqual([409, 'COUPON_USED_UP']);
      expect(await uses()).toEqual({ usesHeld: 1, usesPaid: 0 });

      expect((await settleInSandbox(w.server, paid.payRequestId, 'approve')).status).toBe(200);
      await waitUntil(async () => (await w.server.runtime.knex('orders').where({ id: order.body.order.id }).first()).payment_status === 'completed');
      expect(await uses()).toEqual({ usesHeld: 0, usesPaid: 1 });
    }));

  it('once per e-mail compares the inbox: case, a +tag and Gmail\'s dots are the same family', () =>
    withWorld({}, async (w) => {
      const { place } = await setUp(w, { oncePer: 'email' });
      expect((await place('Jane.Doe+spring@gmail.com')).status).toBe(201);
      for (const email of ['janedoe@gmail.com', 'JANE.DOE+two@googlemail.com', 'j.a.n.e.d.o.e@Gmail.com']) {
        const again = await place(email);
        expect([email, again.status, again.body.code, again.body.message]).toEqual([email, 409, 'COUPON_ALREADY_USED', COUPON_MSG.alreadyUsed]);
      }
      expect((await place('mpho@example.test')).status).toBe(201);
      const tagged = await place('MPHO+again@example.test');
      expect([tagged.status, tagged.body.code]).toEqual([409, 'COUPON_ALREADY_USED']);
      // Dots count outside Gmail: another address there is another family.
      expect((await place('m.pho@example.test')).status).toBe(201);
    }));
});
