import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeApi, startTestServer } from '../../../test/harness';
import { payByBankTransfer, payByEwallet, postForm, settleInSandbox, waitUntil } from '../../../test/shop';
import { closeWorld, initiate, placeOrder, withWorld, world, type World } from '../payments.test-helpers';
import { encodeFormPairs, parseFormPairs, requestChecksum, signedInitiatePairs } from './checksum';
import { PUBLIC_TEST_PAYGATE_ID, PUBLIC_TEST_SECRET } from './codes';

const ALL_METHODS = { PAYMENT_METHODS: 'card,ewallet,bank_transfer' };

/** A signed initiate.trans request of the public test account. */
const initiatePairs = (url: string, payMethod: string) =>
  signedInitiatePairs(
    {
      PAYGATE_ID: PUBLIC_TEST_PAYGATE_ID,
      REFERENCE: 'ORD-WIRING',
      AMOUNT: '500',
      CURRENCY: 'BWP',
      RETURN_URL: `${url}/return`,
      TRANSACTION_DATE: '2025-01-15 08:30:00',
      LOCALE: 'en',
      COUNTRY: 'BWA',
      EMAIL: 'a@example.test',
      PAY_METHOD: payMethod,
    },
    PUBLIC_TEST_SECRET,
  );

/** Posts initiate.trans straight to the server's own sandbox, as a merchant would. */
async function initiateAt(url: string, payMethod: string): Promise<string> {
  const res = await postForm(`${url}/payweb3/initiate.trans`, initiatePairs(url, payMethod));
  return (await res.text()).split('&')[0] ?? '';
}

/** How many requests the server answered at this route, from its own metrics. */
async function answeredAt(w: World, route: string): Promise<number> {
  const lines = (await w.server.runtime.metrics.exposition()).split('\n').filter((line) => line.startsWith('http_requests_total{') && line.includes(`route="${route}"`));
  return lines.reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

const order = async (w: World, orderId: string) => (await w.parent.get(`/api/orders/${orderId}`)).body as { paymentStatus: string; orderStatus: string };
const sandboxTx = (w: World, payRequestId: string) => w.server.runtime.gateway.sandbox?.transactions.get(payRequestId);
const lastPayment = (w: World, orderId: string) => w.server.runtime.knex('payments').where({ order_id: orderId }).orderBy('id', 'desc').first();

describeApi('the built-in sandbox in the server: methods and settling later', () => {
  describe('wiring of PAYMENT_METHODS and the back office', () => {
    it('the sandbox account carries what PAYMENT_METHODS enables; the settle route exists only with the sandbox', async () => {
      const cardOnly = await startTestServer();
      try {
        expect(await initiateAt(cardOnly.url, 'EW')).toBe('ERROR=PGID_NOT_EN');
        expect(await initiateAt(cardOnly.url, 'CC')).toMatch(/^PAYGATE_ID=/);
        const unknown = await postForm(`${cardOnly.url}/payweb3/sandbox/settle`, { PAY_REQUEST_ID: 'nope', OUTCOME: 'approve' });
        expect(unknown.status).toBe(404);
      } finally {
        await cardOnly.close();
      }
      const all = await startTestServer(ALL_METHODS);
      try {
        expect(await initiateAt(all.url, 'EW')).toMatch(/^PAYGATE_ID=/);
        expect(await initiateAt(all.url, 'BT')).toMatch(/^PAYGATE_ID=/);
      } finally {
        await all.close();
      }
      const real = await startTestServer({ PAYGATE_ID: '10011099999', PAYGATE_SECRET: 'a-real-looking-key' });
      try {
        const res = await postForm(`${real.url}/payweb3/sandbox/settle`, { PAY_REQUEST_ID: 'x', OUTCOME: 'approve' });
        expect(res.status).toBe(404);
        expect(real.runtime.gateway.sandbox).toBeNull();
      } finally {
        await real.close();
      }
    });
  });

  it("the server's own initiate and query are answered in its process, as its HTTP endpoints answer them", async () => {
    await withWorld({}, async (w) => {
      const orderId = await placeOrder(w);
      const paying = await initiate(w, orderId);
      expect(paying.body.success).toBe(true);
      // Reconciling the unpaid order asks the gateway (query.trans) before the page answers.
      expect((await w.parent.get(`/api/orders/${orderId}`)).body.paymentStatus).not.toBe('completed');
      expect(await answeredAt(w, '/payweb3/initiate.trans')).toBe(0);
      expect(await answeredAt(w, '/payweb3/query.trans')).toBe(0);
      expect(sandboxTx(w, paying.body.payRequestId)).toMatchObject({ reference: orderId });

      // The same texts as over HTTP: a new request signed, a query of it, and the errors.
      const sandbox = w.server.runtime.gateway.sandbox!;
      const body = encodeFormPairs(initiatePairs(w.server.url, 'CC'));
      const overHttp = await (await postForm(`${w.server.url}/payweb3/initiate.trans`, initiatePairs(w.server.url, 'CC'))).text();
      const inProcess = await sandbox.answer('/payweb3/initiate.trans', body);
      const names = (text: string) => parseFormPairs(text).map(([name]) => name);
      expect(names(inProcess)).toEqual(names(overHttp));
      expect(names(inProcess)).toEqual(['PAYGATE_ID', 'PAY_REQUEST_ID', 'REFERENCE', 'CHECKSUM']);
      expect(await answeredAt(w, '/payweb3/initiate.trans')).toBe(1);
      const payRequestId = parseFormPairs(inProcess).find(([name]) => name === 'PAY_REQUEST_ID')?.[1] ?? '';
      const identity = { paygateId: PUBLIC_TEST_PAYGATE_ID, payRequestId, reference: 'ORD-WIRING' };
      const query = encodeFormPairs([
        ['PAYGATE_ID', identity.paygateId],
        ['PAY_REQUEST_ID', payRequestId],
        ['REFERENCE', identity.reference],
        ['CHECKSUM', requestChecksum(identity, PUBLIC_TEST_SECRET)],
      ]);
      expect(await sandbox.answer('/payweb3/query.trans', query)).toBe(await (await fetch(`${w.server.url}/payweb3/query.trans`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: query })).text());
      expect(await sandbox.answer('/payweb3/initiate.trans', body.replace(/CHECKSUM=[0-9a-f]+/, 'CHECKSUM=0'))).toBe('ERROR=DATA_CHK');
      await expect(sandbox.answer('/payweb3/process.trans', body)).rejects.toThrow(/no server call/);
    });
  });

  describe('bank transfer with the final notify suppressed (SANDBOX_FINAL_NOTIFY=none)', () => {
    let w: World;
    beforeAll(async () => {
      w = await world({ ...ALL_METHODS, SANDBOX_FINAL_NOTIFY: 'none', SANDBOX_FINAL_NOTIFY_MS: '20' });
    });
    afterAll(() => closeWorld(w));

    it('received (5) leaves the order unpaid; the back office settles it paid', async () => {
      const orderId = await placeOrder(w);
      const paid = await payByBankTransfer(w.server, orderId);
      expect(paid.transactionStatus).toBe(5);
      expect(paid.location).toContain(`/order-confirmation/${orderId}`);
      expect(sandboxTx(w, paid.payRequestId)).toMatchObject({ transactionStatus: 5, pending: { payMethod: 'BT', scheduled: null } });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await order(w, orderId)).orderStatus).not.toBe('paid');

      expect(await settleInSandbox(w.server, paid.payRequestId, 'approve')).toEqual({ status: 200, text: 'Settled: TRANSACTION_STATUS=1' });
      // The final notify's first attempt is answered before the settle route answers.
      expect(sandboxTx(w, paid.payRequestId)).toMatchObject({ transactionStatus: 1, notifyAcknowledged: true });
      expect(await order(w, orderId)).toMatchObject({ paymentStatus: 'completed', orderStatus: 'paid' });
      expect(await lastPayment(w, orderId)).toMatchObject({ status: 'completed' });
      expect((await settleInSandbox(w.server, paid.payRequestId, 'decline')).status).toBe(409);
      expect((await settleInSandbox(w.server, 'ABCDEF00-0000-0000-0000-000000000000', 'approve')).status).toBe(404);
    });

    it('a settled decline fails the payment and leaves the order unpaid', async () => {
      const orderId = await placeOrder(w);
      const paid = await payByBankTransfer(w.server, orderId, { followReturn: false });
      expect(paid.location).toBeNull();
      expect((await settleInSandbox(w.server, paid.payRequestId, 'decline')).status).toBe(200);
      expect(await lastPayment(w, orderId)).toMatchObject({ status: 'failed' });
      expect((await order(w, orderId)).orderStatus).not.toBe('paid');
    });
  });

  it('bank transfer: the final notify arrives by itself after SANDBOX_FINAL_NOTIFY_MS', async () => {
    await withWorld({ ...ALL_METHODS, SANDBOX_FINAL_NOTIFY_MS: '150' }, async (w) => {
      const orderId = await placeOrder(w);
      const paid = await payByBankTransfer(w.server, orderId);
      expect(paid.transactionStatus).toBe(5);
      await waitUntil(async () => (await order(w, orderId)).orderStatus === 'paid', 5000);
      expect(sandboxTx(w, paid.payRequestId)).toMatchObject({ transactionStatus: 1, pending: null });
    });
  });

  describe('e-wallet', () => {
    it('approved on the phone without a delay: paid by the notify before the return', async () => {
      await withWorld(ALL_METHODS, async (w) => {
        const orderId = await placeOrder(w);
        const paid = await payByEwallet(w.server, orderId, { mobileNumber: '+267 74 000 111' });
        expect(paid.transactionStatus).toBe(1);
        expect(new URL(paid.location!).searchParams.get('TRANSACTION_STATUS')).toBe('1');
        expect(await order(w, orderId)).toMatchObject({ paymentStatus: 'completed', orderStatus: 'paid' });
        const declined = await placeOrder(w);
        expect((await payByEwallet(w.server, declined, { outcome: 'decline' })).transactionStatus).toBe(2);
        expect(await lastPayment(w, declined)).toMatchObject({ status: 'failed' });
        await expect(payByEwallet(w.server, await placeOrder(w), { mobileNumber: '12 345 678' })).rejects.toThrow(/Botswana mobile number/);
      });
    });

    it('with SANDBOX_EWALLET_DELAY_MS: received first, paid when the phone’s answer arrives', async () => {
      await withWorld({ ...ALL_METHODS, SANDBOX_EWALLET_DELAY_MS: '200' }, async (w) => {
        const orderId = await placeOrder(w);
        const paid = await payByEwallet(w.server, orderId);
        expect(paid.transactionStatus).toBe(5);
        expect((await order(w, orderId)).orderStatus).not.toBe('paid');
        await waitUntil(async () => (await order(w, orderId)).orderStatus === 'paid', 5000);
        const notifies: { body: string }[] = await w.server.runtime.knex('payment_callbacks').where({ kind: 'notify' }).orderBy('id');
        const statuses = notifies.map((row) => parseFormPairs(row.body).find(([name]) => name === 'TRANSACTION_STATUS')?.[1]);
        expect(statuses).toContain('5');
        expect(statuses).toContain('1');
      });
    });
  });
});
