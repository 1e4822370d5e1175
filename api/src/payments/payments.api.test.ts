import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, describeApi, startTestServer } from '../../test/harness';
import { payThroughSandbox, postForm, waitUntil } from '../../test/shop';
import type { FormPairs } from './paygate/checksum';
import { createCommerce } from '../orders/commerce';
import { approvedNotify, closeWorld, confirmations, initiate, placeOrder, withWorld, world, type World } from './payments.test-helpers';

const callbacks = (w: World) => w.server.runtime.knex('payment_callbacks').orderBy('id');

/** A notify exactly as PayGate would sign it, for the payment of an order. */
async function signedNotify(w: World, orderId: string, overrides: Record<string, string> = {}): Promise<FormPairs> {
  const payment = await w.server.runtime.knex('payments').where({ order_id: orderId }).orderBy('id', 'desc').first();
  return approvedNotify(payment, overrides);
}

async function initiateOnly(w: World, orderId: string): Promise<void> {
  const res = await initiate(w, orderId);
  expect(res.body.success).toBe(true);
}

describeApi('payments through the PayWeb3 sandbox', () => {
  describe('outcomes', () => {
    let w: World;
    beforeAll(async () => {
      w = await world();
    });
    afterAll(() => closeWorld(w));

    it('initiate uses the server amount, BWP and its own URLs', async () => {
      const orderId = await placeOrder(w);
      const res = await new Client(w.server.url).post('/api/payment/initiate', {
        orderId,
        amount: '0.01',
        returnUrl: 'https://evil.example/return',
        notifyUrl: 'https://evil.example/notify',
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, processUrl: `${w.server.url}/payweb3/process.trans` });
      expect(res.body.payRequestId).toMatch(/^[0-9A-F-]{36}$/);
      expect(res.body.checksum).toMatch(/^[0-9a-f]{32}$/);
      const payment = await w.server.runtime.knex('payments').where({ order_id: orderId }).first();
      expect(payment).toMatchObject({ amount_thebe: 7750, currency: 'BWP', gateway: 'sandbox', status: 'initiated' });
      const tx = w.server.runtime.gateway.sandbox!.transactions.get(res.body.payRequestId)!;
      expect(tx.returnUrl).toBe(`${w.server.url}/api/payment/return?orderId=${orderId}`);
      expect(tx.notifyUrl).toBe(`${w.server.url}/api/payment/notify`);
      expect(tx.amount).toBe('7750');
      expect((await new Client(w.server.url).post('/api/payment/initiate', { orderId: 'ABCDEFGHJKMNP' })).status).toBe(404);
      expect((await new Client(w.server.url).post('/api/payment/initiate', {})).status).toBe(400);
    });

    it('a cancelled order is refused, opens no request and leaves its claim released', async () => {
      const orderId = await placeOrder(w);
      await w.server.runtime.knex('orders').where({ id: orderId }).update({ order_status: 'cancelled' });
      const res = await new Client(w.server.url).post('/api/payment/initiate', { orderId });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('ORDER_CANCELLED');
      expect(await w.server.runtime.knex('payments').where({ order_id: orderId })).toEqual([]);
      const order = await w.server.runtime.knex('orders').where({ id: orderId }).first();
      expect(order.payment_claimed_until).toBeNull();
      // Again at once: not held up by a claim of the first try.
      expect((await new Client(w.server.url).post('/api/payment/initiate', { orderId })).status).toBe(409);
    });

    it('approved card: paid, one confirmation e-mail with the download link, redirect with the gateway fields', async () => {
      const orderId = await placeOrder(w, 'approved@example.test');
      const { location, payRequestId } = await payThroughSandbox(w.server, orderId);
      const url = new URL(location!);
      expect(url.pathname).toBe(`/order-confirmation/${orderId}`);
      expect(Object.fromEntries(url.searchParams)).toEqual({ PAY_REQUEST_ID: payRequestId, TRANSACTION_STATUS: '1', RESULT_CODE: '990017' });
      const order = await w.parent.get(`/api/orders/${orderId}`);
      expect(order.body).toMatchObject({ paymentStatus: 'completed', orderStatus: 'paid', testPayment: true });
      const digital = order.body.items.find((i: { digital: boolean }) => i.digital);
      expect(digital.downloadUrl).toMatch(new RegExp(`^${w.server.url}/api/downloads/`));
      await w.mail.waitFor('approved@example.test');
      await waitUntil(async () => confirmations(w, orderId).length === 1);
      const mail = confirmations(w, orderId)[0]!;
      expect(mail.text).toContain('P77.50');
      expect(mail.text).toMatch(/school/i);
      expect(mail.text).toContain('/api/downloads/');
      // Photos go by the family's names (the shop's are IMG_0423.JPG and IMG_0424.JPG), never camera file names.
      expect(mail.text).toMatch(/, Photo 42[34]: P/);
      expect(mail.text).not.toContain('IMG_');
      const kinds = (await callbacks(w)).filter((c) => c.body.includes(payRequestId)).map((c) => c.kind);
      expect(kinds).toEqual(expect.arrayContaining(['notify', 'return', 'query']));
      // A paid order cannot be paid again.
      expect((await new Client(w.server.url).post('/api/payment/initiate', { orderId })).status).toBe(409);
    });

    const refusals: [string, string, string, string][] = [
      ['declined', '4000000000000036', '2', '900007'],
      ['insufficient funds', '5200000000000023', '2', '900003'],
      ['an invalid card', '4111111111111111', '2', '900004'],
    ];
    for (const [label, card, status, code] of refusals) {
      it(`${label}: payment failed, order still pending, no confirmation`, async () => {
        const orderId = await placeOrder(w);
        const { location } = await payThroughSandbox(w.server, orderId, { card });
        const params = new URL(location!).searchParams;
        expect(params.get('TRANSACTION_STATUS')).toBe(status);
        expect(params.get('RESULT_CODE')).toBe(code);
        const order = await w.parent.get(`/api/orders/${orderId}`);
        expect(order.body).toMatchObject({ paymentStatus: 'failed', orderStatus: 'pending' });
        expect(order.body.items.every((i: { downloadUrl: string | null }) => i.downloadUrl === null)).toBe(true);
        expect(confirmations(w, orderId)).toHaveLength(0);
      });
    }

    it('user cancel (status 4): failed; the parent may try again and pay', async () => {
      const orderId = await placeOrder(w);
      const { location } = await payThroughSandbox(w.server, orderId, { cancel: true });
      expect(new URL(location!).searchParams.get('TRANSACTION_STATUS')).toBe('4');
      expect((await new Client(w.server.url).get(`/api/orders/${orderId}`)).body.paymentStatus).toBe('failed');
      await payThroughSandbox(w.server, orderId);
      expect((await new Client(w.server.url).get(`/api/orders/${orderId}`)).body).toMatchObject({ paymentStatus: 'completed', orderStatus: 'paid' });
    });

    it('a forged checksum, a tampered amount and a notify replayed for another order change nothing', async () => {
      const a = await placeOrder(w);
      const b = await placeOrder(w);
      await initiateOnly(w, a);
      await initiateOnly(w, b);
      const notifyUrl = `${w.server.url}/api/payment/notify`;

      const forged = (await signedNotify(w, a)).map(([k, v]): [string, string] => [k, k === 'CHECKSUM' ? '0'.repeat(32) : v]);
      const r1 = await postForm(notifyUrl, forged);
      expect(r1.status).toBe(400);
      expect(await r1.text()).not.toBe('OK');

      const tampered = await signedNotify(w, a, { AMOUNT: '1' });
      expect((await postForm(notifyUrl, tampered)).status).toBe(400);

      const wrongCurrency = await signedNotify(w, a, { CURRENCY: 'ZAR' });
      expect((await postForm(notifyUrl, wrongCurrency)).status).toBe(400);

      const replayed = await signedNotify(w, a, { REFERENCE: b });
      expect((await postForm(notifyUrl, replayed)).status).toBe(400);
      // The order is found only through checksummed fields: a query-string order id is ignored.
      const genuineA = await signedNotify(w, a);
      const viaB = await postForm(`${notifyUrl}?orderId=${b}`, genuineA);
      expect(await viaB.text()).toBe('OK');

      const rows = await w.server.runtime.knex('orders').whereIn('id', [a, b]).orderBy('id');
      const byId = Object.fromEntries(rows.map((r) => [r.id, r.payment_status]));
      expect(byId[a]).toBe('completed');
      expect(byId[b]).toBe('pending');
      const outcomes = (await callbacks(w)).map((c) => c.outcome);
      expect(outcomes).toEqual(expect.arrayContaining(['AMOUNT mismatch', 'CURRENCY mismatch', 'REFERENCE mismatch']));
      // Anyone can post a bad checksum: only its size, hash and the reason are kept, never the body.
      expect(outcomes).not.toContain('bad checksum');
      const rejected = await w.server.runtime.knex('rejected_callbacks').where({ reason: 'bad checksum' });
      expect(rejected.length).toBeGreaterThan(0);
      expect(rejected[0]).toMatchObject({ kind: 'notify', body_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(Number(rejected[0].body_bytes)).toBeGreaterThan(100);
      expect(Object.keys(rejected[0]).sort()).toEqual(['body_bytes', 'body_sha256', 'created_at', 'id', 'kind', 'reason']);
    });

    it('ten concurrent duplicate notifies settle the order once and send one e-mail', async () => {
      const orderId = await placeOrder(w, 'dupes@example.test');
      await initiateOnly(w, orderId);
      const body = await signedNotify(w, orderId);
      const answers = await Promise.all(Array.from({ length: 10 }, () => postForm(`${w.server.url}/api/payment/notify`, body).then((r) => r.text())));
      expect(answers).toEqual(Array(10).fill('OK'));
      const payment = await w.server.runtime.knex('payments').where({ order_id: orderId }).first();
      const notes = (await w.server.runtime.knex('payment_callbacks').where({ payment_id: payment.id })).map((c) => c.outcome);
      expect(notes.filter((n) => n.endsWith('order paid'))).toHaveLength(1);
      expect(notes.filter((n) => n.includes('repeat of completed'))).toHaveLength(9);
      await w.mail.waitForMessages(1, { match: (m) => m.subject.includes(orderId) });
      await w.mail.noMoreThan(1, { match: (m) => m.subject.includes(orderId), within: 200 });
      expect(confirmations(w, orderId)).toHaveLength(1);
      // A later decline never takes a paid order back.
      const declined = await signedNotify(w, orderId, { TRANSACTION_STATUS: '2', RESULT_CODE: '900007' });
      expect(await (await postForm(`${w.server.url}/api/payment/notify`, declined)).text()).toBe('OK');
      expect((await new Client(w.server.url).get(`/api/orders/${orderId}`)).body).toMatchObject({ paymentStatus: 'completed', orderStatus: 'paid' });
    });

    it('a forged return POST leaves the order pending', async () => {
      const orderId = await placeOrder(w);
      await initiateOnly(w, orderId);
      const payment = await w.server.runtime.knex('payments').where({ order_id: orderId }).first();
      const res = await postForm(`${w.server.url}/api/payment/return?orderId=${orderId}`, {
        PAY_REQUEST_ID: payment.pay_request_id,
        TRANSACTION_STATUS: '1',
        CHECKSUM: 'f'.repeat(32),
      });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`${w.server.url}/order-confirmation/${orderId}`);
      expect((await w.server.runtime.knex('orders').where({ id: orderId }).first()).payment_status).toBe('pending');
    });
  });

  describe('gateway switches', () => {
    it('cancel with status 3 is a cancellation too', () =>
      withWorld({ SANDBOX_CANCEL_STATUS: '3' }, async (w) => {
        const orderId = await placeOrder(w);
        const { location } = await payThroughSandbox(w.server, orderId, { cancel: true });
        expect(new URL(location!).searchParams.get('TRANSACTION_STATUS')).toBe('3');
        expect((await new Client(w.server.url).get(`/api/orders/${orderId}`)).body.paymentStatus).toBe('failed');
      }));

    it('duplicate notifies from the gateway: one transition, one e-mail', () =>
      withWorld({ SANDBOX_DUPLICATE_NOTIFIES: '9' }, async (w) => {
        const orderId = await placeOrder(w, 'gateway-dupes@example.test');
        await payThroughSandbox(w.server, orderId);
        await waitUntil(async () => (await w.server.runtime.knex('payment_callbacks').where({ kind: 'notify' })).length >= 10);
        const notes = (await w.server.runtime.knex('payment_callbacks')).map((c) => c.outcome);
        expect(notes.filter((n) => n.endsWith('order paid'))).toHaveLength(1);
        await w.mail.waitForMessages(1, { match: (m) => m.subject.includes(orderId) });
        await w.mail.noMoreThan(1, { match: (m) => m.subject.includes(orderId), within: 200 });
        expect(confirmations(w, orderId)).toHaveLength(1);
      }));

    it('a notify after the return changes nothing twice', () =>
      withWorld({ SANDBOX_NOTIFY_DELAY_MS: '300' }, async (w) => {
        const orderId = await placeOrder(w, 'late@example.test');
        const { location } = await payThroughSandbox(w.server, orderId);
        expect(new URL(location!).searchParams.get('TRANSACTION_STATUS')).toBe('1');
        expect((await w.server.runtime.knex('orders').where({ id: orderId }).first()).payment_status).toBe('completed');
        await waitUntil(async () => (await w.server.runtime.knex('payment_callbacks').where({ kind: 'notify' })).length === 1);
        const notify = await w.server.runtime.knex('payment_callbacks').where({ kind: 'notify' }).first();
        expect(notify.outcome).toContain('repeat of completed');
        await w.mail.waitForMessages(1, { match: (m) => m.subject.includes(orderId) });
        await w.mail.noMoreThan(1, { match: (m) => m.subject.includes(orderId), within: 200 });
        expect(confirmations(w, orderId)).toHaveLength(1);
      }));

    it('a lost notify is settled by query when the order is read, and by the sweep', () =>
      withWorld({ SANDBOX_SUPPRESS_NOTIFY: 'true', PAYMENT_QUERY_INTERVAL_MS: '100' }, async (w) => {
        const read = await placeOrder(w);
        await payThroughSandbox(w.server, read, { followReturn: false });
        expect((await w.server.runtime.knex('orders').where({ id: read }).first()).payment_status).toBe('pending');
        await new Promise((resolve) => setTimeout(resolve, 150));
        const order = await new Client(w.server.url).get(`/api/orders/${read}`);
        expect(order.body).toMatchObject({ paymentStatus: 'completed', orderStatus: 'paid' });

        const swept = await placeOrder(w);
        await payThroughSandbox(w.server, swept, { followReturn: false });
        await new Promise((resolve) => setTimeout(resolve, 150));
        await createCommerce(w.server.runtime).payments.sweep(0);
        expect((await w.server.runtime.knex('orders').where({ id: swept }).first()).payment_status).toBe('completed');
        await waitUntil(async () => confirmations(w, swept).length === 1);
      }));
  });


  it('with real credentials the sandbox is not served', async () => {
    const server = await startTestServer({ PAYGATE_ID: '20000000001', PAYGATE_SECRET: 'a-real-looking-key' });
    try {
      expect(server.runtime.gateway.kind).toBe('paygate');
      const res = await postForm(`${server.url}/payweb3/initiate.trans`, { PAYGATE_ID: '20000000001' });
      expect(res.status).toBe(404);
      expect((await postForm(`${server.url}/payweb3/process.trans`, { PAY_REQUEST_ID: 'x' })).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
