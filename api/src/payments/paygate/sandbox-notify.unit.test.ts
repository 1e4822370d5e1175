import { afterEach, describe, expect, it, vi } from 'vitest';
import { pairValue, verifyPostedChecksum } from './checksum';
import { APPROVED_TEST_CARD } from './codes';
import { SECRET, payWith, postForm, rawInitiate, startHarness, PAYGATE_ID, type Harness } from './sandbox.test-helpers';
import { parseFormPairs } from './checksum';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('sandbox notify delivery', () => {
  it('retries anything but the exact body OK, and stops once OK arrives', async () => {
    h = await startHarness({ notifyRetryDelayMs: 40 });
    const replies = [
      { status: 200, body: 'ok' },
      { status: 500, body: 'OK' },
      { status: 200, body: 'OK\n' },
      { status: 200, body: 'OK' },
    ];
    h.notifyReply = (index) => replies[index] ?? { status: 200, body: 'OK' };
    const { initiated } = await payWith(h, APPROVED_TEST_CARD);
    await vi.waitFor(() => expect(h?.notifies).toHaveLength(4), { timeout: 2000, interval: 10 });
    await sleep(200);
    expect(h.notifies).toHaveLength(4);
    expect(new Set(h.notifies.map((n) => n.raw)).size).toBe(1);
    const gaps = h.notifies.slice(1).map((n, i) => n.at - (h?.notifies[i]?.at ?? 0));
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(35);
    expect(h.gateway.transactions.get(initiated.payRequestId)).toMatchObject({ notifyAttempts: 4, notifyAcknowledged: true });
  });

  it('gives up after maxNotifyRetries retries', async () => {
    h = await startHarness({ notifyRetryDelayMs: 20, maxNotifyRetries: 2 });
    h.notifyReply = () => ({ status: 503, body: 'busy' });
    const { initiated } = await payWith(h, APPROVED_TEST_CARD);
    await vi.waitFor(() => expect(h?.notifies).toHaveLength(3), { timeout: 2000, interval: 10 });
    await sleep(150);
    expect(h.notifies).toHaveLength(3);
    expect(h.gateway.transactions.get(initiated.payRequestId)?.notifyAcknowledged).toBe(false);
  });

  it('close() cancels pending retries', async () => {
    h = await startHarness({ notifyRetryDelayMs: 50 });
    h.notifyReply = () => ({ status: 200, body: 'no' });
    await payWith(h, APPROVED_TEST_CARD);
    expect(h.notifies).toHaveLength(1);
    h.gateway.close();
    await sleep(150);
    expect(h.notifies).toHaveLength(1);
  });

  it('duplicateNotifies delivers N+1 identical, valid notifies before the return page', async () => {
    h = await startHarness({ duplicateNotifies: 2 });
    await payWith(h, APPROVED_TEST_CARD);
    expect(h.notifies).toHaveLength(3);
    expect(new Set(h.notifies.map((n) => n.raw)).size).toBe(1);
    for (const notify of h.notifies) expect(verifyPostedChecksum(notify.pairs, SECRET)).toBe(true);
  });

  it('suppressNotify sends nothing while query still reports the outcome', async () => {
    h = await startHarness({ suppressNotify: true });
    const { input, initiated, returnForm } = await payWith(h, APPROVED_TEST_CARD);
    expect(returnForm?.fields.TRANSACTION_STATUS).toBe('1');
    await sleep(100);
    expect(h.notifies).toHaveLength(0);
    const { transaction } = await h.client.query({ payRequestId: initiated.payRequestId, reference: input.reference });
    expect(transaction).toMatchObject({ transactionStatus: 1, resultCode: '990017' });
    expect(transaction.authCode).toMatch(/^[A-Z0-9]{6}$/);
  });

  it('notifyDelayMs answers the browser first and notifies afterwards', async () => {
    h = await startHarness({ notifyDelayMs: 150 });
    const { result } = await payWith(h, '4000000000000036');
    const returnedAt = Date.now();
    expect(result.status).toBe(200);
    expect(h.notifies).toHaveLength(0);
    await vi.waitFor(() => expect(h?.notifies).toHaveLength(1), { timeout: 2000, interval: 10 });
    expect((h.notifies[0]?.at ?? 0) - returnedAt).toBeGreaterThanOrEqual(50);
    expect(pairValue(h.notifies[0]?.pairs ?? [], 'TRANSACTION_STATUS')).toBe('2');
  });

  it('nullAuthCodeOnDecline posts AUTH_CODE=null signed as empty, which verifies with the empty-AUTH_CODE tolerance', async () => {
    h = await startHarness({ nullAuthCodeOnDecline: true });
    await payWith(h, '5200000000000023');
    const pairs = h.notifies[0]?.pairs ?? [];
    expect(pairValue(pairs, 'AUTH_CODE')).toBe('null');
    expect(verifyPostedChecksum(pairs, SECRET)).toBe(true);
  });

  it('sends no notify when the initiate had no NOTIFY_URL', async () => {
    h = await startHarness();
    const res = await postForm(
      `${h.baseUrl}/payweb3/initiate.trans`,
      rawInitiate({
        PAYGATE_ID,
        REFERENCE: 'ORD-NO-NOTIFY',
        AMOUNT: '500',
        CURRENCY: 'BWP',
        RETURN_URL: `${h.merchantUrl}/return`,
        TRANSACTION_DATE: '2025-01-15 08:30:00',
        LOCALE: 'en',
        COUNTRY: 'BWA',
        EMAIL: 'a@example.bw',
      }),
    );
    const payRequestId = pairValue(parseFormPairs(res.text), 'PAY_REQUEST_ID') ?? '';
    const checksum = pairValue(parseFormPairs(res.text), 'CHECKSUM') ?? '';
    const paid = await postForm(`${h.baseUrl}/payweb3/pay.trans`, [
      ['PAY_REQUEST_ID', payRequestId],
      ['CHECKSUM', checksum],
      ['CARD_NUMBER', APPROVED_TEST_CARD],
      ['EXPIRY', '12/99'],
      ['ACTION', 'pay'],
    ]);
    expect(paid.status).toBe(200);
    expect(h.notifies).toHaveLength(0);
    expect(h.gateway.transactions.get(payRequestId)?.notifyAttempts).toBe(0);
  });
});
