import { expect, it } from 'vitest';
import { PAYMENT_METHOD_MSG } from '../../contract/messages';
import { Client, describeApi, staffClient } from '../../test/harness';
import { payInitiated, payInitiatedByBankTransfer, payInitiatedByEwallet, settleInSandbox, waitUntil, type Initiated } from '../../test/shop';
import { createMaintenance } from '../jobs/maintenance';
import { confirmations, placeOrder, withWorld, type World } from './payments.test-helpers';

/**
 * Each method through the built-in sandbox over HTTP (docs/payments.md, "Payment methods" and
 * "Payments that settle later"): the shop's initiate, the sandbox's page, its notifies (received,
 * then final) and the browser's return, with a real SMTP catcher counting e-mails.
 */
const ALL_METHODS = { PAYMENT_METHODS: 'card,ewallet,bank_transfer' };

async function open(w: World, orderId: string, method: string): Promise<Initiated> {
  const res = await new Client(w.server.url).post('/api/payment/initiate', { orderId, method });
  expect(res.status).toBe(200);
  return res.body;
}

const order = async (w: World, orderId: string) => (await w.parent.get(`/api/orders/${orderId}`)).body;
const orderRow = (w: World, orderId: string) => w.server.runtime.knex('orders').where({ id: orderId }).first();
const confirmed = (w: World, orderId: string) => confirmations(w, orderId).filter((m) => m.subject.includes('is confirmed'));
const statusIn = (location: string | null) => new URL(location ?? '').searchParams.get('TRANSACTION_STATUS');
const wallet = (w: World, initiated: Initiated, outcome: 'approve' | 'decline' | 'cancel') => payInitiatedByEwallet(w.server, initiated, { outcome });
const transfer = (w: World, initiated: Initiated, cancel = false) => payInitiatedByBankTransfer(w.server, initiated, { cancel });

/** Exactly one e-mail about the order arrives, and no other within a moment. */
async function exactlyOneConfirmation(w: World, orderId: string): Promise<void> {
  await waitUntil(async () => confirmed(w, orderId).length === 1, 10_000);
  await w.mail.noMoreThan(1, { match: (m) => m.subject.includes(orderId), within: 400 });
}

describeApi('which PAY_METHOD the shop sends', () => {
  it('card-only sends none (the request as before methods existed); with several methods each request names its method', async () => {
    await withWorld({}, async (w) => {
      const orderId = await placeOrder(w);
      const initiated = await open(w, orderId, 'card');
      expect(w.server.runtime.gateway.sandbox!.transactions.get(initiated.payRequestId)).toMatchObject({ payMethod: null, payMethodDetail: null });
    });
    await withWorld(ALL_METHODS, async (w) => {
      const sent = async (method: string) => {
        const initiated = await open(w, await placeOrder(w), method);
        const tx = w.server.runtime.gateway.sandbox!.transactions.get(initiated.payRequestId)!;
        return [tx.payMethod, tx.payMethodDetail];
      };
      expect(await sent('card')).toEqual(['CC', null]);
      expect(await sent('ewallet')).toEqual(['EW', null]);
      expect(await sent('bank_transfer')).toEqual(['BT', 'SID']);
    });
  });
});

describeApi('card, e-wallet and bank transfer through the sandbox', () => {
  it('card with several methods enabled: approved, declined and cancelled as before', () =>
    withWorld(ALL_METHODS, async (w) => {
      const approved = await placeOrder(w, 'card-ok@example.test');
      const back = await payInitiated(w.server, await open(w, approved, 'card'));
      expect(statusIn(back.location)).toBe('1');
      expect(await order(w, approved)).toMatchObject({ paymentStatus: 'completed', paymentMethod: 'card', gatewayPayMethod: 'CC', gatewayPayMethodDetail: 'Visa' });
      await exactlyOneConfirmation(w, approved);
      const declined = await placeOrder(w);
      expect(statusIn((await payInitiated(w.server, await open(w, declined, 'card'), { card: '4000000000000036' })).location)).toBe('2');
      expect((await order(w, declined)).paymentStatus).toBe('failed');
      const cancelled = await placeOrder(w);
      expect(statusIn((await payInitiated(w.server, await open(w, cancelled, 'card'), { cancel: true })).location)).toBe('4');
      expect((await order(w, cancelled)).paymentStatus).toBe('failed');
      await w.mail.noMoreThan(0, { match: (m) => m.subject.includes(declined) || m.subject.includes(cancelled), within: 200 });
    }));

  it('e-wallet approved on the phone: paid, the wallet reported, one confirmation', () =>
    withWorld(ALL_METHODS, async (w) => {
      const orderId = await placeOrder(w, 'wallet@example.test');
      const back = await wallet(w, await open(w, orderId, 'ewallet'), 'approve');
      expect(statusIn(back.location)).toBe('1');
      const paid = await order(w, orderId);
      expect(paid).toMatchObject({ paymentStatus: 'completed', orderStatus: 'paid', paymentMethod: 'ewallet', gatewayPayMethod: 'EW', awaitingPayment: null });
      expect(paid.gatewayPayMethodDetail).toBeTruthy();
      await exactlyOneConfirmation(w, orderId);
    }));

  it('e-wallet declined on the phone, or cancelled: failed, no e-mail, and the parent can pay again by card', () =>
    withWorld(ALL_METHODS, async (w) => {
      const declined = await placeOrder(w);
      expect(statusIn((await wallet(w, await open(w, declined, 'ewallet'), 'decline')).location)).toBe('2');
      expect(await order(w, declined)).toMatchObject({ paymentStatus: 'failed', gatewayPayMethod: 'EW' });
      const cancelled = await placeOrder(w);
      expect(statusIn((await wallet(w, await open(w, cancelled, 'ewallet'), 'cancel')).location)).toBe('4');
      expect((await order(w, cancelled)).paymentStatus).toBe('failed');
      await w.mail.noMoreThan(0, { match: (m) => m.subject.includes(declined) || m.subject.includes(cancelled), within: 200 });
      // Try Again by card.
      await payInitiated(w.server, await open(w, declined, 'card'));
      expect(await order(w, declined)).toMatchObject({ paymentStatus: 'completed', paymentMethod: 'card', gatewayPayMethod: 'CC' });
      await exactlyOneConfirmation(w, declined);
    }));

  it('e-wallet confirmed on the phone later: awaiting confirmation (no deadline), then paid by the final notify', () =>
    withWorld({ ...ALL_METHODS, SANDBOX_EWALLET_DELAY_MS: '1500' }, async (w) => {
      const orderId = await placeOrder(w, 'wallet-later@example.test');
      const back = await wallet(w, await open(w, orderId, 'ewallet'), 'approve');
      expect(statusIn(back.location)).toBe('5');
      const waiting = await order(w, orderId);
      expect(waiting).toMatchObject({ paymentStatus: 'pending', awaitingPayment: { method: 'ewallet', reference: orderId, deadline: null } });
      await waitUntil(async () => (await orderRow(w, orderId)).payment_status === 'completed', 10_000);
      expect((await order(w, orderId)).awaitingPayment).toBeNull();
      await exactlyOneConfirmation(w, orderId);
    }));

  it('bank transfer: received, awaiting with the reference and deadline, then the final notify pays it; one e-mail', () =>
    withWorld({ ...ALL_METHODS, SANDBOX_FINAL_NOTIFY_MS: '1500' }, async (w) => {
      const orderId = await placeOrder(w, 'transfer-ok@example.test');
      const back = await transfer(w, await open(w, orderId, 'bank_transfer'));
      expect(statusIn(back.location)).toBe('5');
      const waiting = await order(w, orderId);
      expect(waiting).toMatchObject({ paymentStatus: 'pending', gatewayPayMethod: 'BT', gatewayPayMethodDetail: 'SID' });
      expect(waiting.awaitingPayment).toMatchObject({ method: 'bank_transfer', reference: orderId });
      const deadline = Date.parse(waiting.awaitingPayment.deadline);
      expect(Math.abs(deadline - (Date.now() + 7 * 24 * 3600_000))).toBeLessThan(60_000);
      expect((await new Client(w.server.url).get(`/api/orders/${orderId}`)).body.awaitingPayment).toEqual(waiting.awaitingPayment);
      await waitUntil(async () => (await orderRow(w, orderId)).payment_status === 'completed', 10_000);
      expect(await order(w, orderId)).toMatchObject({ orderStatus: 'paid', awaitingPayment: null, paymentMethod: 'bank_transfer' });
      await exactlyOneConfirmation(w, orderId);
    }));

  it('bank transfer declined by the bank, or cancelled on the page: failed, no e-mail', () =>
    withWorld({ ...ALL_METHODS, SANDBOX_FINAL_NOTIFY: 'decline', SANDBOX_FINAL_NOTIFY_MS: '500' }, async (w) => {
      const declined = await placeOrder(w);
      expect(statusIn((await transfer(w, await open(w, declined, 'bank_transfer'))).location)).toBe('5');
      await waitUntil(async () => (await orderRow(w, declined)).payment_status === 'failed', 10_000);
      expect((await order(w, declined)).awaitingPayment).toBeNull();
      const cancelled = await placeOrder(w);
      expect(statusIn((await transfer(w, await open(w, cancelled, 'bank_transfer'), true)).location)).toBe('4');
      expect((await order(w, cancelled)).paymentStatus).toBe('failed');
      await w.mail.noMoreThan(0, { match: (m) => m.subject.includes(declined) || m.subject.includes(cancelled), within: 300 });
    }));

  it('duplicate final notifies pay once and send one e-mail', () =>
    withWorld({ ...ALL_METHODS, SANDBOX_FINAL_NOTIFY_MS: '300', SANDBOX_DUPLICATE_NOTIFIES: '2' }, async (w) => {
      const orderId = await placeOrder(w, 'dupes@example.test');
      await transfer(w, await open(w, orderId, 'bank_transfer'));
      await waitUntil(async () => (await orderRow(w, orderId)).payment_status === 'completed', 10_000);
      await exactlyOneConfirmation(w, orderId);
      const payment = await w.server.runtime.knex('payments').where({ order_id: orderId }).first();
      const notes = (await w.server.runtime.knex('payment_callbacks').where({ payment_id: payment.id, kind: 'notify' })).map((c) => c.outcome as string);
      expect(notes.filter((n) => n === 'status 1: order paid')).toHaveLength(1);
      expect(notes.filter((n) => n === 'status 1: repeat of completed').length).toBeGreaterThanOrEqual(1);
      expect((await orderRow(w, orderId)).duplicate_payments).toBe(0);
    }));
});

describeApi('a bank transfer that expires, then is approved in the back office', () => {
  it('expires with one e-mail; the late approval is recorded, pays the order, flags it, one confirmation', () =>
    withWorld({ ...ALL_METHODS, SANDBOX_FINAL_NOTIFY: 'none' }, async (w) => {
      const orderId = await placeOrder(w, 'too-late@example.test');
      const initiated = await open(w, orderId, 'bank_transfer');
      expect(statusIn((await transfer(w, initiated)).location)).toBe('5');
      const knex = w.server.runtime.knex;
      // Seven days go by: the deadline is moved into the past.
      await knex('payments').where({ order_id: orderId }).update({ expires_at: Date.now() - 1000 });
      const maintenance = createMaintenance(w.server.runtime);
      expect(await maintenance.sweepPayments()).toBe(true);
      expect(await maintenance.sweepPayments()).toBe(true);
      expect(await orderRow(w, orderId)).toMatchObject({ payment_status: 'failed', order_status: 'pending', paid_after_expiry: 0 });
      const expiredMail = await w.mail.waitForMessages(1, { match: (m) => m.subject === PAYMENT_METHOD_MSG.expiredEmailSubject(orderId) });
      expect(expiredMail[0]!.text).toContain(`/order-confirmation/${orderId}`);

      expect((await settleInSandbox(w.server, initiated.payRequestId, 'approve')).status).toBe(200);
      await waitUntil(async () => (await orderRow(w, orderId)).payment_status === 'completed', 10_000);
      expect(await orderRow(w, orderId)).toMatchObject({ order_status: 'paid', paid_after_expiry: 1 });
      const staff = await staffClient(w.server);
      expect((await staff.get(`/api/orders/${orderId}`)).body).toMatchObject({ paidAfterExpiry: 1, gatewayPayMethod: 'BT', awaitingPayment: null });
      await waitUntil(async () => confirmed(w, orderId).length === 1, 10_000);
      // One expiry e-mail, one confirmation, nothing more.
      await w.mail.noMoreThan(2, { match: (m) => m.subject.includes(orderId), within: 400 });
    }));
});
