import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFormPairs, requestChecksum, verifyPostedChecksum, type InitiateFields } from './checksum';
import { PayGateError } from './errors';
import { BWP_INITIATE } from './checksum.test-helpers';
import { PAYGATE_ID, SECRET, postForm, rawInitiate, startHarness, type Harness } from './sandbox.test-helpers';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const valid = BWP_INITIATE;

describe('sandbox initiate.trans', () => {
  it('answers a signed PAYGATE_ID, uppercase GUID PAY_REQUEST_ID and REFERENCE as text/plain', async () => {
    const res = await postForm(`${h.baseUrl}/payweb3/initiate.trans`, rawInitiate(valid));
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/plain/);
    const pairs = parseFormPairs(res.text);
    expect(pairs.map(([name]) => name)).toEqual(['PAYGATE_ID', 'PAY_REQUEST_ID', 'REFERENCE', 'CHECKSUM']);
    const payRequestId = pairs[1]?.[1] ?? '';
    expect(payRequestId).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
    expect(verifyPostedChecksum(pairs, SECRET)).toBe(true);
    expect(h.gateway.transactions.get(payRequestId)).toMatchObject({ reference: 'ORD-1001', amount: '12550', currency: 'BWP' });
  });

  it('recomputes the checksum in canonical order whatever the posting order', async () => {
    const shuffled = rawInitiate(valid).reverse();
    const res = await postForm(`${h.baseUrl}/payweb3/initiate.trans`, shuffled);
    expect(res.text).toContain('PAY_REQUEST_ID=');
  });

  const cases: [string, InitiateFields | 'unsigned' | 'wrong-key'][] = [
    ['DATA_PW', { ...valid, EMAIL: undefined }],
    ['DATA_PW', { ...valid, TRANSACTION_DATE: undefined }],
    ['ND_INV_PGID', { ...valid, PAYGATE_ID: '10011099999' }],
    ['DATA_CHK', 'wrong-key'],
    ['DATA_PW', 'unsigned'],
    ['DATA_AMT_NUM', { ...valid, AMOUNT: '125.50' }],
    ['DATA_AMT_NUM', { ...valid, AMOUNT: '' }],
    ['DATA_AMT_ZERO', { ...valid, AMOUNT: '0' }],
    ['DATA_CUR', { ...valid, CURRENCY: 'GBP' }],
    ['DATA_DTTM', { ...valid, TRANSACTION_DATE: '2025-02-30 08:30:00' }],
    ['DATA_DTTM', { ...valid, TRANSACTION_DATE: '2025-01-15T08:30:00Z' }],
    ['DATA_CREF', { ...valid, REFERENCE: '' }],
    ['DATA_URL', { ...valid, RETURN_URL: '' }],
    ['DATA_URL', { ...valid, NOTIFY_URL: 'javascript:alert(1)' }],
    ['DATA_REGION', { ...valid, LOCALE: '' }],
    ['DATA_REGION', { ...valid, COUNTRY: '' }],
    ['CNTRY_INVALID', { ...valid, COUNTRY: 'Botswana' }],
    ['INV_EMAIL', { ...valid, EMAIL: 'not-an-email' }],
    ['DATA_PM', { ...valid, PAY_METHOD: 'XX' }],
  ];

  it.each(cases)('answers ERROR=%s', async (code, fields) => {
    const pairs =
      fields === 'wrong-key'
        ? rawInitiate(valid, 'not-the-key')
        : fields === 'unsigned'
          ? rawInitiate(valid).filter(([name]) => name !== 'CHECKSUM')
          : rawInitiate(fields);
    const before = h.gateway.transactions.size;
    const res = await postForm(`${h.baseUrl}/payweb3/initiate.trans`, pairs);
    expect(res.text).toBe(`ERROR=${code}`);
    expect(h.gateway.transactions.size).toBe(before);
  });

  it('accepts ZAR, USD and EUR besides BWP', async () => {
    for (const CURRENCY of ['ZAR', 'USD', 'EUR']) {
      const res = await postForm(`${h.baseUrl}/payweb3/initiate.trans`, rawInitiate({ ...valid, CURRENCY }));
      expect(res.text).toContain('PAY_REQUEST_ID=');
    }
  });
});

describe('client against the sandbox', () => {
  it('initiate returns the redirect checksum and the process URL', async () => {
    const input = h.initiateInput({ transactionDate: new Date('2025-01-15T08:30:00Z') });
    const result = await h.client.initiate(input);
    expect(result.processUrl).toBe(`${h.baseUrl}/payweb3/process.trans`);
    expect(result.checksum).toBe(requestChecksum({ paygateId: PAYGATE_ID, payRequestId: result.payRequestId, reference: input.reference }, SECRET));
    expect(h.gateway.transactions.get(result.payRequestId)).toMatchObject({ amount: '12550', notifyUrl: input.notifyUrl });
  });

  it('throws PayGateError with the gateway code', async () => {
    await expect(h.client.initiate(h.initiateInput({ currency: 'GBP' }))).rejects.toMatchObject({ code: 'DATA_CUR', fromGateway: true });
    await expect(h.client.initiate(h.initiateInput({ email: 'nope' }))).rejects.toBeInstanceOf(PayGateError);
  });

  it('a wrong secret is DATA_CHK from the gateway', async () => {
    const { createPayGateClient } = await import('./client');
    const wrong = createPayGateClient({ paygateId: PAYGATE_ID, secret: 'wrong', baseUrl: h.baseUrl });
    await expect(wrong.initiate(h.initiateInput())).rejects.toMatchObject({ code: 'DATA_CHK' });
  });

  it('query before payment reports status 0 with no result code', async () => {
    const input = h.initiateInput();
    const { payRequestId } = await h.client.initiate(input);
    const { transaction, fields } = await h.client.query({ payRequestId, reference: input.reference });
    expect(transaction).toMatchObject({ payRequestId, reference: input.reference, transactionStatus: 0, resultCode: null, amount: 12550, currency: 'BWP' });
    expect(fields.at(-1)?.[0]).toBe('CHECKSUM');
  });

  it('query for an unknown id or the wrong reference is ND_INV_PRID', async () => {
    await expect(h.client.query({ payRequestId: '00000000-0000-0000-0000-000000000000', reference: 'x' })).rejects.toMatchObject({ code: 'ND_INV_PRID' });
    const input = h.initiateInput();
    const { payRequestId } = await h.client.initiate(input);
    await expect(h.client.query({ payRequestId, reference: 'someone-else' })).rejects.toMatchObject({ code: 'ND_INV_PRID' });
  });

  it('query with a bad checksum is DATA_CHK', async () => {
    const input = h.initiateInput();
    const { payRequestId } = await h.client.initiate(input);
    const res = await postForm(`${h.baseUrl}/payweb3/query.trans`, [
      ['PAYGATE_ID', PAYGATE_ID],
      ['PAY_REQUEST_ID', payRequestId],
      ['REFERENCE', input.reference],
      ['CHECKSUM', '0'.repeat(32)],
    ]);
    expect(res.text).toBe('ERROR=DATA_CHK');
  });
});
