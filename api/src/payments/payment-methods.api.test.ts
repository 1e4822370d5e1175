import { expect, it } from 'vitest';
import { PAYMENT_METHOD_MSG } from '../../contract/messages';
import { Client, describeApi, staffClient } from '../../test/harness';
import { orderBody, payInitiated, postForm, standardLines, waitUntil } from '../../test/shop';
import { createMaintenance } from '../jobs/maintenance';
import type { FormPairs } from './paygate/checksum';
import { approvedNotify, confirmations, placeOrder, withWorld, type World } from './payments.test-helpers';

/** docs/payments.md, "Payment methods" and "Payments that settle later". */
const ALL_METHODS = { PAYMENT_METHODS: 'bank_transfer,card,ewallet' };

const initiateWith = (w: World, orderId: string, method?: string) => new Client(w.server.url).post('/api/payment/initiate', { orderId, ...(method && { method }) });

const latestPayment = (w: World, orderId: string) => w.server.runtime.knex('payments').where({ order_id: orderId }).orderBy('id', 'desc').first();

/** A notify for the order's latest payment as PayGate signs one for a bank transfer: status 5 (received) unless overridden. */
async function bankTransferNotify(w: World, orderId: string, overrides: Record<string, string> = {}): Promise<FormPairs> {
  return approvedNotify(await latestPayment(w, orderId), {
    TRANSACTION_STATUS: '5',
    RESULT_CODE: '',
    AUTH_CODE: '999999',
    RESULT_DESC: 'Received',
    TRANSACTION_ID: '88001234',
    RISK_INDICATOR: 'NA',
    PAY_METHOD: 'BT',
    PAY_METHOD_DETAIL: 'SID',
    ...overrides,
  });
}

const FINAL_APPROVAL = { TRANSACTION_STATUS: '1', RESULT_CODE: '990017', RESULT_DESC: 'Auth Done' };

async function notify(w: World, pairs: FormPairs): Promise<string> {
  const res = await postForm(`${w.server.url}/api/payment/notify`, pairs);
  return res.text();
}

const orderRow = (w: World, orderId: string) => w.server.runtime.knex('orders').where({ id: orderId }).first();
const outcomes = async (w: World, orderId: string): Promise<string[]> => {
  const payment = await latestPayment(w, orderId);
  return (await w.server.runtime.knex('payment_callbacks').where({ payment_id: payment.id }).orderBy('id')).map((c) => c.outcome as string);
};
const expiryMails = (w: World, orderId: string) => w.mail.messages.filter((m) => m.subject === PAYMENT_METHOD_MSG.expiredEmailSubject(orderId));
const confirmedMails = (w: World, orderId: string) => confirmations(w, orderId).filter((m) => m.subject.includes('is confirmed'));

/** The received bank transfer's deadline is moved into the past, as if BANK_TRANSFER_EXPIRY_DAYS had gone by. */
async function passDeadline(w: World, orderId: string): Promise<void> {
  const payment = await latestPayment(w, orderId);
  const past = Date.now() - 1000;
  await w.server.runtime.knex('payments').where({ id: payment.id }).update({ expires_at: past, created_at: past - 7 * 24 * 3600_000 });
}

describeApi('GET /api/payment/methods', () => {
  it('answers card alone by default, publicly and briefly cacheable', () =>
    withWorld({}, async (w) => {
      const res = await new Client(w.server.url).get('/api/payment/methods');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ methods: [{ id: 'card', label: 'Card', description: PAYMENT_METHOD_MSG.methods.card.description, settlesLater: false }] });
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    }));

  it('answers the configured methods in the contract order, whatever the configured order', () =>
    withWorld(ALL_METHODS, async (w) => {
      const res = await new Client(w.server.url).get('/api/payment/methods');
      expect(res.body.methods.map((m: { id: string }) => m.id)).toEqual(['card', 'ewallet', 'bank_transfer']);
      expect(res.body.methods.map((m: { settlesLater: boolean }) => m.settlesLater)).toEqual([false, true, true]);
      expect(res.body.methods[2].label).toBe('Bank transfer');
    }));
});

describeApi('the bank account for a transfer', () => {
  it('is listed with the bank transfer method, from configuration; null when none is configured', () =>
    withWorld({ ...ALL_METHODS, BANK_ACCOUNT_NAME: 'Lesedi School Photos', BANK_NAME: 'First National Bank Botswana', BANK_ACCOUNT_NUMBER: '62001234567', BANK_BRANCH_CODE: '282467' }, async (w) => {
      const { methods } = (await new Client(w.server.url).get('/api/payment/methods')).body as { methods: { id: string; bankAccount?: unknown }[] };
      expect(methods.find((m) => m.id === 'bank_transfer')?.bankAccount).toEqual({
        accountName: 'Lesedi School Photos',
        bankName: 'First National Bank Botswana',
        accountNumber: '62001234567',
        branchCode: '282467',
      });
      expect(methods.filter((m) => 'bankAccount' in m).map((m) => m.id)).toEqual(['bank_transfer']);
    }));

  it('is null without BANK_ACCOUNT_* settings', () =>
    withWorld(ALL_METHODS, async (w) => {
      const { methods } = (await new Client(w.server.url).get('/api/payment/methods')).body as { methods: { id: string; bankAccount?: unknown }[] };
      expect(methods.find((m) => m.id === 'bank_transfer')?.bankAccount).toBeNull();
    }));
});

describeApi('choosing a method at initiate', () => {
  it('refuses a method that is not enabled (400, its own code) and an unknown one (400), opening nothing', () =>
    withWorld({}, async (w) => {
      const orderId = await placeOrder(w);
      const notEnabled = await initiateWith(w, orderId, 'ewallet');
      expect(notEnabled.status).toBe(400);
      expect(notEnabled.body).toMatchObject({ code: 'PAYMENT_METHOD_NOT_ENABLED', message: PAYMENT_METHOD_MSG.methodNotEnabled });
      const unknown = await initiateWith(w, orderId, 'mpesa');
      expect(unknown.status).toBe(400);
      expect(unknown.body.code).toBe('VALIDATION_FAILED');
      expect(await w.server.runtime.knex('payments').where({ order_id: orderId })).toEqual([]);
      expect((await orderRow(w, orderId)).payment_claimed_until).toBeNull();
      // Without a method: the first enabled one, card.
      expect((await initiateWith(w, orderId)).status).toBe(200);
      expect((await latestPayment(w, orderId)).method).toBe('card');
    }));

  it('records the chosen method, reuses an open request only for the same method, and lets the parent switch', () =>
    withWorld(ALL_METHODS, async (w) => {
      const orderId = await placeOrder(w);
      const card = await initiateWith(w, orderId);
      expect(card.status).toBe(200);
      expect((await latestPayment(w, orderId)).method).toBe('card');
      expect((await initiateWith(w, orderId, 'card')).body.payRequestId).toBe(card.body.payRequestId);
      const wallet = await initiateWith(w, orderId, 'ewallet');
      expect(wallet.status).toBe(200);
      expect(wallet.body.payRequestId).not.toBe(card.body.payRequestId);
      expect((await initiateWith(w, orderId, 'ewallet')).body.payRequestId).toBe(wallet.body.payRequestId);
      // Back to card: its request is still open, so it is handed back rather than a third one opened.
      expect((await initiateWith(w, orderId, 'card')).body.payRequestId).toBe(card.body.payRequestId);
      const rows = await w.server.runtime.knex('payments').where({ order_id: orderId }).orderBy('id');
      expect(rows.map((r) => r.method)).toEqual(['card', 'ewallet']);
      const staff = await staffClient(w.server);
      // The latest payment is the e-wallet's: that is the method the order shows.
      expect((await staff.get(`/api/orders/${orderId}`)).body).toMatchObject({ paymentMethod: 'ewallet', awaitingPayment: null, paidAfterExpiry: 0 });
    }));

  it('a card payment shows the chosen and the reported method to staff and the family', () =>
    withWorld(ALL_METHODS, async (w) => {
      const orderId = await placeOrder(w, 'card-payer@example.test');
      const opened = await initiateWith(w, orderId, 'card');
      await payInitiated(w.server, opened.body);
      const order = (await w.parent.get(`/api/orders/${orderId}`)).body;
      expect(order).toMatchObject({ paymentStatus: 'completed', paymentMethod: 'card', gatewayPayMethod: 'CC', gatewayPayMethodDetail: 'Visa', awaitingPayment: null });
      const listed = (await (await staffClient(w.server)).get('/api/orders')).body.find((o: { id: string }) => o.id === orderId);
      expect(listed).toMatchObject({ paymentMethod: 'card', gatewayPayMethod: 'CC', gatewayPayMethodDetail: 'Visa' });
    }));
});

describeApi('the method shown is the one that paid', () => {
  it('a mobile money payment received, then card tried and left: paid by mobile money, shown as mobile money (Orange Money)', () =>
    withWorld(ALL_METHODS, async (w) => {
      const orderId = await placeOrder(w, 'wallet-payer@example.test');
      expect((await initiateWith(w, orderId, 'ewallet')).status).toBe(200);
      const walletPayment = await latestPayment(w, orderId);
      const wallet = { PAY_METHOD: 'EW', PAY_METHOD_DETAIL: 'Orange Money' };
      expect(await notify(w, approvedNotify(walletPayment, { ...wallet, TRANSACTION_STATUS: '5', RESULT_CODE: '', RESULT_DESC: 'Received' }))).toBe('OK');
      // "Pay another way": a card payment is opened and left on PayGate's page.
      expect((await initiateWith(w, orderId, 'card')).status).toBe(200);
      expect((await latestPayment(w, orderId)).method).toBe('card');
      // The wallet's approval arrives: that payment paid the order.
      expect(await notify(w, approvedNotify(walletPayment, { ...wallet, ...FINAL_APPROVAL }))).toBe('OK');
      const shown = { paymentStatus: 'completed', paymentMethod: 'ewallet', gatewayPayMethod: 'EW', gatewayPayMethodDetail: 'Orange Money' };
      const staff = await staffClient(w.server);
      expect((await staff.get(`/api/orders/${orderId}`)).body).toMatchObject(shown);
      expect((await staff.get('/api/orders')).body.find((o: { id: string }) => o.id === orderId)).toMatchObject(shown);
      expect((await w.parent.get(`/api/orders/${orderId}`)).body).toMatchObject(shown);
    }));
});

describeApi('a bank transfer that settles later (self-signed notifies)', () => {
  it('received (status 5): awaiting confirmation with the reference and deadline; the final notify pays it once, one e-mail', () =>
    withWorld(ALL_METHODS, async (w) => {
      const orderId = await placeOrder(w, 'transfer@example.test');
      expect((await initiateWith(w, orderId, 'bank_transfer')).status).toBe(200);
      expect(await notify(w, await bankTransferNotify(w, orderId))).toBe('OK');

      const payment = await latestPayment(w, orderId);
      expect(payment).toMatchObject({ status: 'pending', method: 'bank_transfer', pay_method: 'BT', pay_method_detail: 'SID', transaction_status: 5 });
      const days = Number(payment.expires_at) - Number(payment.received_at);
      expect(days).toBe(7 * 24 * 3600_000);
      const family = (await w.parent.get(`/api/orders/${orderId}`)).body;
      expect(family).toMatchObject({ paymentStatus: 'pending', orderStatus: 'pending', paymentMethod: 'bank_transfer', gatewayPayMethod: 'BT', gatewayPayMethodDetail: 'SID' });
      expect(family.awaitingPayment).toEqual({ method: 'bank_transfer', reference: orderId, deadline: new Date(Number(payment.expires_at)).toISOString() });
      // Someone with only the link sees it too (the summary).
      const summary = (await new Client(w.server.url).get(`/api/orders/${orderId}`)).body;
      expect(summary).toMatchObject({ summary: true, paymentStatus: 'pending', awaitingPayment: family.awaitingPayment });
      // A repeated status 5 changes nothing.
      expect(await notify(w, await bankTransferNotify(w, orderId))).toBe('OK');
      expect(Number((await latestPayment(w, orderId)).received_at)).toBe(Number(payment.received_at));

      // Days later: the final notify to the same NOTIFY_URL.
      expect(await notify(w, await bankTransferNotify(w, orderId, FINAL_APPROVAL))).toBe('OK');
      expect(await latestPayment(w, orderId)).toMatchObject({ status: 'completed', transaction_status: 1 });
      const paid = (await w.parent.get(`/api/orders/${orderId}`)).body;
      expect(paid).toMatchObject({ paymentStatus: 'completed', orderStatus: 'paid', awaitingPayment: null, paymentMethod: 'bank_transfer' });
      await waitUntil(async () => confirmedMails(w, orderId).length === 1);

      // Duplicate final notify, then a late status 5 (reordered): nothing changes, no second e-mail.
      expect(await notify(w, await bankTransferNotify(w, orderId, FINAL_APPROVAL))).toBe('OK');
      expect(await notify(w, await bankTransferNotify(w, orderId))).toBe('OK');
      expect(await latestPayment(w, orderId)).toMatchObject({ status: 'completed', transaction_status: 1 });
      expect((await w.parent.get(`/api/orders/${orderId}`)).body.awaitingPayment).toBeNull();
      expect(await outcomes(w, orderId)).toEqual([
        'status 5: received, awaiting the final result',
        'status 5: repeat of received',
        'status 1: order paid',
        'status 1: repeat of completed',
        'status 5: ignored: payment already completed',
      ]);
      await w.mail.noMoreThan(1, { match: (m) => m.subject.includes(orderId), within: 300 });
    }));

  it('a final notify arriving before the provisional one pays once; the late status 5 is ignored', () =>
    withWorld(ALL_METHODS, async (w) => {
      const orderId = await placeOrder(w, 'reordered@example.test');
      await initiateWith(w, orderId, 'bank_transfer');
      expect(await notify(w, await bankTransferNotify(w, orderId, FINAL_APPROVAL))).toBe('OK');
      expect(await notify(w, await bankTransferNotify(w, orderId))).toBe('OK');
      expect(await latestPayment(w, orderId)).toMatchObject({ status: 'completed', received_at: null, expires_at: null });
      expect((await orderRow(w, orderId)).payment_status).toBe('completed');
      await waitUntil(async () => confirmedMails(w, orderId).length === 1);
      await w.mail.noMoreThan(1, { match: (m) => m.subject.includes(orderId), within: 300 });
    }));

  it('a declined final notify fails the payment and the order shows no awaiting state', () =>
    withWorld(ALL_METHODS, async (w) => {
      const orderId = await placeOrder(w);
      await initiateWith(w, orderId, 'bank_transfer');
      await notify(w, await bankTransferNotify(w, orderId));
      expect(await notify(w, await bankTransferNotify(w, orderId, { TRANSACTION_STATUS: '2', RESULT_CODE: '900007', RESULT_DESC: 'Declined' }))).toBe('OK');
      expect((await latestPayment(w, orderId)).status).toBe('failed');
      expect((await w.parent.get(`/api/orders/${orderId}`)).body).toMatchObject({ paymentStatus: 'failed', awaitingPayment: null });
    }));

  it('a notify whose amount differs is refused even for the final one', () =>
    withWorld(ALL_METHODS, async (w) => {
      const orderId = await placeOrder(w);
      await initiateWith(w, orderId, 'bank_transfer');
      await notify(w, await bankTransferNotify(w, orderId));
      const res = await postForm(`${w.server.url}/api/payment/notify`, await bankTransferNotify(w, orderId, { ...FINAL_APPROVAL, AMOUNT: '1' }));
      expect(res.status).toBe(400);
      expect((await latestPayment(w, orderId)).status).toBe('pending');
    }));
});

describeApi('an unconfirmed bank transfer expires', () => {
  it('to failed with one e-mail to pay again; an approval after expiry still pays the unpaid order, flagged, with one confirmation', () =>
    withWorld(ALL_METHODS, async (w) => {
      const orderId = await placeOrder(w, 'slow-bank@example.test');
      await initiateWith(w, orderId, 'bank_transfer');
      await notify(w, await bankTransferNotify(w, orderId));
      const maintenance = createMaintenance(w.server.runtime);
      // Before the deadline nothing expires.
      expect(await maintenance.sweepPayments()).toBe(true);
      expect((await latestPayment(w, orderId)).status).toBe('pending');

      await passDeadline(w, orderId);
      expect(await maintenance.sweepPayments()).toBe(true);
      const expired = await latestPayment(w, orderId);
      expect(expired.status).toBe('failed');
      expect(expired.expired_at).not.toBeNull();
      expect(await orderRow(w, orderId)).toMatchObject({ payment_status: 'failed', order_status: 'pending' });
      expect((await w.parent.get(`/api/orders/${orderId}`)).body.awaitingPayment).toBeNull();
      await waitUntil(async () => expiryMails(w, orderId).length === 1);
      const mail = expiryMails(w, orderId)[0]!;
      expect(mail.to).toEqual(['slow-bank@example.test']);
      expect(mail.text).toContain(PAYMENT_METHOD_MSG.expiredEmailBody(orderId, 7));
      expect(mail.text).toContain(`${w.server.url}/order-confirmation/${orderId}`);
      // Another run sends nothing more.
      expect(await maintenance.sweepPayments()).toBe(true);
      await w.mail.noMoreThan(1, { match: (m) => m.subject === PAYMENT_METHOD_MSG.expiredEmailSubject(orderId), within: 300 });

      // The money arrives after all: recorded, the order paid and flagged, one confirmation.
      expect(await notify(w, await bankTransferNotify(w, orderId, FINAL_APPROVAL))).toBe('OK');
      expect(await latestPayment(w, orderId)).toMatchObject({ status: 'completed', transaction_status: 1 });
      expect(await orderRow(w, orderId)).toMatchObject({ payment_status: 'completed', order_status: 'paid', paid_after_expiry: 1, duplicate_payments: 0 });
      const staffView = (await (await staffClient(w.server)).get(`/api/orders/${orderId}`)).body;
      expect(staffView).toMatchObject({ paidAfterExpiry: 1, paymentStatus: 'completed', gatewayPayMethod: 'BT' });
      await waitUntil(async () => confirmedMails(w, orderId).length === 1);
      // A repeat of that approval changes nothing.
      expect(await notify(w, await bankTransferNotify(w, orderId, FINAL_APPROVAL))).toBe('OK');
      expect((await orderRow(w, orderId)).paid_after_expiry).toBe(1);
      expect((await outcomes(w, orderId)).slice(-2)).toEqual(['status 1: paid after expiry, order paid', 'status 1: repeat of completed']);
      await w.mail.noMoreThan(2, { match: (m) => m.subject.includes(orderId), within: 300 });
      expect(confirmedMails(w, orderId)).toHaveLength(1);
    }));

  it('a parent who paid by card meanwhile gets no expiry e-mail; the late transfer is "paid twice" and flagged', () =>
    withWorld(ALL_METHODS, async (w) => {
      const orderId = await placeOrder(w, 'switched@example.test');
      await initiateWith(w, orderId, 'bank_transfer');
      await notify(w, await bankTransferNotify(w, orderId));
      const transfer = await latestPayment(w, orderId);
      // Gave up on the transfer: pays by card instead (a new request, not the received one).
      const card = await initiateWith(w, orderId, 'card');
      expect(card.body.payRequestId).not.toBe(transfer.pay_request_id);
      await payInitiated(w.server, card.body);
      await waitUntil(async () => confirmedMails(w, orderId).length === 1);
      expect((await w.parent.get(`/api/orders/${orderId}`)).body).toMatchObject({ paymentStatus: 'completed', paymentMethod: 'card', gatewayPayMethod: 'CC' });

      await w.server.runtime.knex('payments').where({ id: transfer.id }).update({ expires_at: Date.now() - 1000 });
      expect(await createMaintenance(w.server.runtime).sweepPayments()).toBe(true);
      expect((await w.server.runtime.knex('payments').where({ id: transfer.id }).first()).status).toBe('failed');
      expect((await orderRow(w, orderId)).payment_status).toBe('completed');

      const late = approvedNotify(transfer, { ...FINAL_APPROVAL, AUTH_CODE: '999999', PAY_METHOD: 'BT', PAY_METHOD_DETAIL: 'SID' });
      expect(await notify(w, late)).toBe('OK');
      expect(await orderRow(w, orderId)).toMatchObject({ payment_status: 'completed', duplicate_payments: 1, paid_after_expiry: 1 });
      // The card paid the order: its method is what staff see.
      expect((await (await staffClient(w.server)).get(`/api/orders/${orderId}`)).body).toMatchObject({ gatewayPayMethod: 'CC', duplicatePayments: 1, paidAfterExpiry: 1 });
      await w.mail.noMoreThan(1, { match: (m) => m.subject.includes(orderId), within: 300 });
      expect(expiryMails(w, orderId)).toHaveLength(0);
    }));

  it('an order cancelled after expiry and then paid is "paid after cancellation" and flagged', () =>
    withWorld(ALL_METHODS, async (w) => {
      const orderId = await placeOrder(w);
      await initiateWith(w, orderId, 'bank_transfer');
      await notify(w, await bankTransferNotify(w, orderId));
      await passDeadline(w, orderId);
      await createMaintenance(w.server.runtime).sweepPayments();
      await waitUntil(async () => expiryMails(w, orderId).length === 1);
      const staff = await staffClient(w.server);
      expect((await staff.put(`/api/orders/${orderId}`, { orderStatus: 'cancelled' })).status).toBe(200);
      expect(await notify(w, await bankTransferNotify(w, orderId, FINAL_APPROVAL))).toBe('OK');
      expect(await orderRow(w, orderId)).toMatchObject({ order_status: 'cancelled', paid_after_cancel: 1, paid_after_expiry: 1 });
      expect((await orderRow(w, orderId)).payment_status).not.toBe('completed');
      await w.mail.noMoreThan(1, { match: (m) => m.subject.includes(orderId), within: 300 });
      expect(confirmedMails(w, orderId)).toHaveLength(0);
    }));
});

describeApi('the gentle sweep of received payments', () => {
  it('asks every 15 minutes at first, then every 6 hours after two days, and still reaches card payments', () =>
    withWorld({ ...ALL_METHODS, SANDBOX_SUPPRESS_NOTIFY: 'true' }, async (w) => {
      const knex = w.server.runtime.knex;
      const transferOrder = await placeOrder(w);
      await initiateWith(w, transferOrder, 'bank_transfer');
      await notify(w, await bankTransferNotify(w, transferOrder));
      const transfer = await latestPayment(w, transferOrder);
      const cardOrder = await placeOrder(w);
      const card = await initiateWith(w, cardOrder, 'card');
      await payInitiated(w.server, card.body, { followReturn: false });
      await knex('payments').where({ order_id: cardOrder }).update({ created_at: Date.now() - 5 * 60_000 });
      const maintenance = createMaintenance(w.server.runtime);
      const asked = async () => Number((await knex('payments').where({ id: transfer.id }).first()).last_queried_at ?? 0);

      await knex('payments').where({ id: transfer.id }).update({ last_queried_at: null });
      expect(await maintenance.sweepPayments()).toBe(true);
      // The card payment whose notify was lost is settled by the same run.
      expect((await orderRow(w, cardOrder)).payment_status).toBe('completed');
      const first = await asked();
      expect(first).toBeGreaterThan(0);
      // Young: due again only after 15 minutes.
      await knex('payments').where({ id: transfer.id }).update({ last_queried_at: Date.now() - 10 * 60_000 });
      await maintenance.sweepPayments();
      expect(Date.now() - (await asked())).toBeGreaterThanOrEqual(10 * 60_000 - 1000);
      await knex('payments').where({ id: transfer.id }).update({ last_queried_at: Date.now() - 16 * 60_000 });
      await maintenance.sweepPayments();
      expect(Date.now() - (await asked())).toBeLessThan(60_000);
      // Three days old: an hour-old question is recent enough; seven hours is not.
      await knex('payments').where({ id: transfer.id }).update({ created_at: Date.now() - 3 * 24 * 3600_000, last_queried_at: Date.now() - 2 * 3600_000 });
      await maintenance.sweepPayments();
      expect(Date.now() - (await asked())).toBeGreaterThan(3600_000);
      await knex('payments').where({ id: transfer.id }).update({ last_queried_at: Date.now() - 7 * 3600_000 });
      await maintenance.sweepPayments();
      expect(Date.now() - (await asked())).toBeLessThan(60_000);
      expect((await latestPayment(w, transferOrder)).status).toBe('pending');
    }));
});

describeApi('an order paid late by a slow method', () => {
  it('keeps its prices and products after its class closed and its price list changed, whether the transfer or a new card payment pays it', () =>
    withWorld(ALL_METHODS, async (w) => {
      const knex = w.server.runtime.knex;
      const late = await placeOrder(w, 'late-transfer@example.test');
      const again = await placeOrder(w, 'pay-again@example.test');
      const before = await orderRow(w, late);
      for (const orderId of [late, again]) {
        await initiateWith(w, orderId, 'bank_transfer');
        await notify(w, await bankTransferNotify(w, orderId));
      }
      // Meanwhile: ordering prints closed, the print costs more and the download is gone from the list.
      await knex('schools').where({ id: w.shop.schoolId }).update({ closing_date: new Date(Date.now() - 3 * 24 * 3600_000).toISOString().slice(0, 10) });
      await knex('price_list_items').where({ id: Number(w.shop.print.id) }).update({ price_thebe: 9900 });
      await knex('price_list_items').where({ id: Number(w.shop.digital.id) }).delete();
      // A new order of those prints is refused now (the class really closed).
      const refused = await w.parent.post('/api/orders', orderBody(w.shop, [standardLines(w.shop)[0]!]));
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('PRINTS_CLOSED');

      // The transfer arrives: paid at the price it was placed with.
      expect(await notify(w, await bankTransferNotify(w, late, FINAL_APPROVAL))).toBe('OK');
      const paid = (await w.parent.get(`/api/orders/${late}`)).body;
      expect(paid).toMatchObject({ paymentStatus: 'completed', orderStatus: 'paid', totalAmount: '77.50' });
      expect(paid.items.map((i: { productName: string; totalPrice: string }) => [i.productName, i.totalPrice])).toEqual([
        ['Glossy Print', '60.00'],
        ['HD Download', '17.50'],
      ]);
      expect(Number((await orderRow(w, late)).total_thebe)).toBe(Number(before.total_thebe));
      await waitUntil(async () => confirmedMails(w, late).length === 1);
      expect(confirmedMails(w, late)[0]!.text).toContain('P77.50');

      // The other transfer expires; the parent pays again by card: the same amount, not refused.
      await passDeadline(w, again);
      await createMaintenance(w.server.runtime).sweepPayments();
      expect((await orderRow(w, again)).payment_status).toBe('failed');
      const card = await initiateWith(w, again, 'card');
      expect(card.status).toBe(200);
      expect(Number((await latestPayment(w, again)).amount_thebe)).toBe(7750);
      await payInitiated(w.server, card.body);
      expect((await w.parent.get(`/api/orders/${again}`)).body).toMatchObject({ paymentStatus: 'completed', totalAmount: '77.50', paymentMethod: 'card', paidAfterExpiry: 0 });
      await waitUntil(async () => confirmedMails(w, again).length === 1);
      await w.mail.noMoreThan(2, { match: (m) => m.subject.includes(again), within: 300 });
    }));
});
