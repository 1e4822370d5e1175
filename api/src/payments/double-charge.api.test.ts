import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { payInitiated, payThroughSandbox, postForm, waitUntil } from '../../test/shop';
import { createPaymentsRepository } from './payments.repository';
import { PAYMENT_REUSE_MS } from './payments.service';
import { STORED_CALLBACK_CHARS } from './callback-limits';
import { approvedNotify, closeWorld, confirmations, initiate, placeOrder, withWorld, world, type World } from './payments.test-helpers';
import { agePayments } from '../../test/fixtures';

/** A payer of their own for each order. */
const anyPayer = () => `payer-${Math.random().toString(36).slice(2, 8)}@example.test`;
const paymentsOf = (w: World, orderId: string) => w.server.runtime.knex('payments').where({ order_id: orderId }).orderBy('id');

describeApi('no silent double charge', () => {
  let w: World;
  beforeAll(async () => {
    w = await world();
  });
  afterAll(() => closeWorld(w));

  it('a second initiate for an unpaid order hands out the same payment request', async () => {
    const orderId = await placeOrder(w, anyPayer());
    const first = await initiate(w, orderId);
    const second = await initiate(w, orderId);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await paymentsOf(w, orderId)).toHaveLength(1);
    // The reused request is still payable, once.
    await payInitiated(w.server, second.body);
    expect((await w.parent.get(`/api/orders/${orderId}`)).body).toMatchObject({ paymentStatus: 'completed', duplicatePayments: 0 });
    expect((await initiate(w, orderId)).status).toBe(409);
  });

  it('initiates racing each other (double click, two tabs) open one payment request', async () => {
    const orderId = await placeOrder(w, anyPayer());
    const answers = await Promise.all(Array.from({ length: 6 }, () => initiate(w, orderId)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.body.payRequestId)).size).toBe(1);
    expect(await paymentsOf(w, orderId)).toHaveLength(1);
    expect((await w.server.runtime.knex('orders').where({ id: orderId }).first()).payment_claimed_until).toBeNull();
  });

  it('a declined or cancelled request is replaced by a new one, so the parent can try again', async () => {
    const orderId = await placeOrder(w, anyPayer());
    const { payRequestId } = await payThroughSandbox(w.server, orderId, { card: '4000000000000036' });
    const retry = await initiate(w, orderId);
    expect(retry.status).toBe(200);
    expect(retry.body.payRequestId).not.toBe(payRequestId);
    expect(await paymentsOf(w, orderId)).toHaveLength(2);
  });

  it('a request too old for the gateway to show is replaced', async () => {
    const orderId = await placeOrder(w, anyPayer());
    const first = await initiate(w, orderId);
    await agePayments(w.server, orderId, PAYMENT_REUSE_MS + 60_000);
    const second = await initiate(w, orderId);
    expect(second.body.payRequestId).not.toBe(first.body.payRequestId);
  });
});

describeApi('an open request paid while its notify was lost', () => {
  it('is found by asking the gateway: 409, the order paid, no second request', () =>
    withWorld({ SANDBOX_SUPPRESS_NOTIFY: 'true' }, async (w) => {
      const orderId = await placeOrder(w, anyPayer());
      const opened = await initiate(w, orderId);
      await payInitiated(w.server, opened.body, { followReturn: false });
      expect((await w.server.runtime.knex('orders').where({ id: orderId }).first()).payment_status).toBe('pending');
      const again = await initiate(w, orderId);
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('ALREADY_PAID');
      expect(await paymentsOf(w, orderId)).toHaveLength(1);
      expect((await w.server.runtime.knex('orders').where({ id: orderId }).first()).payment_status).toBe('completed');
    }));
});

describeApi('a second approved payment', () => {
  it('is recorded and flags the order for staff ("paid twice"), with exactly one confirmation e-mail', () =>
    withWorld({}, async (w) => {
      const staff = await staffClient(w.server, 'admin');
      const orderId = await placeOrder(w, 'twice@example.test');
      // An old request the parent kept open in one tab, and a fresh one from another.
      const old = await initiate(w, orderId);
      await agePayments(w.server, orderId, PAYMENT_REUSE_MS + 60_000);
      const fresh = await initiate(w, orderId);
      expect(fresh.body.payRequestId).not.toBe(old.body.payRequestId);

      await payInitiated(w.server, fresh.body);
      await waitUntil(async () => confirmations(w, orderId).length === 1);
      await payInitiated(w.server, old.body);

      const order = (await w.parent.get(`/api/orders/${orderId}`)).body;
      expect(order).toMatchObject({ paymentStatus: 'completed', orderStatus: 'paid', duplicatePayments: 1 });
      const listed = (await staff.get('/api/orders')).body.find((o: { id: string }) => o.id === orderId);
      expect(listed.duplicatePayments).toBe(1);
      const payments = await paymentsOf(w, orderId);
      expect(payments.map((p) => p.status)).toEqual(['completed', 'completed']);
      const notes = (await w.server.runtime.knex('payment_callbacks').whereIn('payment_id', payments.map((p) => p.id))).map((c) => c.outcome);
      expect(notes.filter((n) => n.endsWith('order paid'))).toHaveLength(1);
      expect(notes.filter((n) => n.endsWith('paid twice, refund one')).length).toBeGreaterThanOrEqual(1);
      // A repeated notify of the extra payment does not count it twice.
      const extra = payments.find((p) => p.pay_request_id === old.body.payRequestId);
      const repeat = approvedNotify(extra, { AUTH_CODE: 'X1', TRANSACTION_ID: '1' });
      expect(await (await postForm(`${w.server.url}/api/payment/notify`, repeat)).text()).toBe('OK');
      expect((await w.parent.get(`/api/orders/${orderId}`)).body.duplicatePayments).toBe(1);
      await w.mail.noMoreThan(1, { match: (m) => m.subject.includes(orderId), within: 300 });
      expect(confirmations(w, orderId)).toHaveLength(1);
    }));
});

describeApi('callbacks are stored bounded', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('100 junk notifies leave 100 small records: size, hash and reason, no body', async () => {
    const junk = (i: number) => `PAY_REQUEST_ID=${i}&JUNK=${'x'.repeat(7000)}&CHECKSUM=${'0'.repeat(32)}`;
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${server.url}/api/payment/notify`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: junk(i) });
      expect(res.status).toBe(400);
    }
    const rows = await server.runtime.knex('rejected_callbacks').orderBy('id');
    expect(rows).toHaveLength(100);
    expect(rows[0]).toMatchObject({ kind: 'notify', reason: 'bad checksum', body_sha256: createHash('sha256').update(junk(0)).digest('hex') });
    expect(Number(rows[0].body_bytes)).toBe(junk(0).length);
    expect(await server.runtime.knex('payment_callbacks').count({ n: '*' }).first()).toMatchObject({ n: 0 });
  });

  it('a forged return keeps only a bounded record too', async () => {
    const res = await postForm(`${server.url}/api/payment/return?orderId=ABCDEFGHJK`, { PAY_REQUEST_ID: 'nope', TRANSACTION_STATUS: '1', CHECKSUM: 'f'.repeat(32) });
    expect(res.status).toBe(303);
    expect(await server.runtime.knex('rejected_callbacks').where({ kind: 'return' })).toHaveLength(1);
  });

  it('only the newest refused callbacks are kept', async () => {
    const repo = createPaymentsRepository(server.runtime.knex);
    await server.runtime.knex('rejected_callbacks').delete();
    for (let i = 0; i < 8; i++) await repo.recordRejected({ kind: 'notify', body: `n=${i}`, reason: 'bad checksum' }, 5);
    const kept = await server.runtime.knex('rejected_callbacks').orderBy('id');
    expect(kept.length).toBeLessThanOrEqual(5);
    expect(kept.at(-1).body_sha256).toBe(createHash('sha256').update('n=7').digest('hex'));
  });

  it('an accepted callback stores at most a few KB of its body, with the full size and hash', async () => {
    const repo = createPaymentsRepository(server.runtime.knex);
    const body = `RESULT_DESC=${'d'.repeat(7000)}`;
    await repo.recordCallback(server.runtime.knex, { paymentId: null, kind: 'notify', body, checksumOk: true, outcome: 'test' });
    const row = await server.runtime.knex('payment_callbacks').orderBy('id', 'desc').first();
    expect(row.body).toHaveLength(STORED_CALLBACK_CHARS);
    expect(Number(row.body_bytes)).toBe(body.length);
    expect(row.body_sha256).toBe(createHash('sha256').update(body).digest('hex'));
  });
});
