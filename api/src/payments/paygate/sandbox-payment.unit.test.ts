import { afterEach, describe, expect, it } from 'vitest';
import { returnChecksum, verifyPostedChecksum } from './checksum';
import { APPROVED_TEST_CARD } from './codes';
import { SANDBOX_ICON_HREF } from './sandbox-pages';
import { PAYGATE_ID, SECRET, openPaymentPage, parseForm, payWith, postForm, startHarness, type Harness } from './sandbox.test-helpers';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const NOTIFY_ORDER = [
  'PAYGATE_ID', 'PAY_REQUEST_ID', 'REFERENCE', 'TRANSACTION_STATUS', 'RESULT_CODE', 'AUTH_CODE', 'CURRENCY', 'AMOUNT',
  'RESULT_DESC', 'TRANSACTION_ID', 'RISK_INDICATOR', 'PAY_METHOD', 'PAY_METHOD_DETAIL', 'CHECKSUM',
];

describe('sandbox payment page', () => {
  it('shows amount, reference, a labelled prefilled card field, the test cards and Pay/Cancel', async () => {
    h = await startHarness();
    const input = h.initiateInput({ reference: 'ORD-<b>&"1"' });
    const { payRequestId, checksum } = await h.client.initiate(input);
    const page = await openPaymentPage(h, payRequestId, checksum);
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    const html = page.text;
    expect(html).toContain('BWP 125.50');
    expect(html).toContain('ORD-&#60;b&#62;&#38;&#34;1&#34;');
    expect(html).not.toContain('<b>&');
    expect(html).toMatch(/<label for="card-number">Card number<\/label>/);
    expect(html).toMatch(new RegExp(`<input id="card-number"[^>]*value="${APPROVED_TEST_CARD}"`));
    expect(html).toMatch(/<label for="expiry">/);
    expect(html).toMatch(/<label for="cvv">/);
    expect(html).toMatch(/<button[^>]*>Pay<\/button>/);
    expect(html).toMatch(/<button[^>]*>Cancel<\/button>/);
    expect(html).toMatch(/test payment gateway/i);
    expect(html).toMatch(/no real money/i);
    // Its own tab icon, inline: no request for /favicon.ico answered 404.
    expect(html).toContain(`<link rel="icon" type="image/svg+xml" href="${SANDBOX_ICON_HREF}">`);
    expect(SANDBOX_ICON_HREF).toMatch(/^data:image\/svg\+xml,%3Csvg/);
    for (const card of ['5200000000000015', '378282246310005', '5200000000000023', '4000000000000036', '30569309025904', '5200000000000064']) {
      expect(html).toContain(card);
    }
    expect(html).toContain('Any other number');
    // Under a CSP without inline scripts and with form-action 'self': no inline JS, no external assets.
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)/);
    expect(html).not.toMatch(/(?:src|href)="https?:/);
    expect(parseForm(html).action).toBe('/payweb3/pay.trans');
  });

  it('rejects a bad checksum, an unknown id and a missing id', async () => {
    h = await startHarness();
    const { payRequestId } = await h.client.initiate(h.initiateInput());
    expect((await openPaymentPage(h, payRequestId, 'f'.repeat(32))).text).toContain('DATA_CHK');
    expect((await openPaymentPage(h, '00000000-0000-0000-0000-000000000000', 'x')).text).toContain('ND_INV_PRID');
    const missing = await postForm(`${h.baseUrl}/payweb3/process.trans`, [['CHECKSUM', 'x']]);
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('DATA_PAY_REQ_ID');
  });

  it('expires a request after 30 minutes (TXN_PRC)', async () => {
    let clock = Date.parse('2025-06-01T10:00:00Z');
    h = await startHarness({ now: () => clock });
    const { payRequestId, checksum } = await h.client.initiate(h.initiateInput());
    clock += 30 * 60 * 1000 + 1;
    expect((await openPaymentPage(h, payRequestId, checksum)).text).toContain('TXN_PRC');
  });

  it('re-shows the form for a past expiry without finishing the payment', async () => {
    h = await startHarness();
    const { payRequestId, checksum } = await h.client.initiate(h.initiateInput());
    const res = await postForm(`${h.baseUrl}/payweb3/pay.trans`, [
      ['PAY_REQUEST_ID', payRequestId],
      ['CHECKSUM', checksum],
      ['CARD_NUMBER', APPROVED_TEST_CARD],
      ['EXPIRY', '01/20'],
      ['CVV', '123'],
      ['ACTION', 'pay'],
    ]);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/role="alert"[^>]*>Enter an expiry date in the future/);
    expect(h.gateway.transactions.get(payRequestId)?.transactionStatus).toBeNull();
    expect(h.notifies).toHaveLength(0);
  });

  it('serves the auto-submit script as JavaScript', async () => {
    h = await startHarness();
    const res = await fetch(`${h.baseUrl}/payweb3/autosubmit.js`);
    expect(res.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(await res.text()).toContain('form[data-autosubmit]');
  });
});

describe('sandbox outcomes', () => {
  const outcomes: [string, string, number, string, string][] = [
    ['approved', APPROVED_TEST_CARD, 1, '990017', 'Auth Done'],
    ['approved (Amex)', '378282246310005', 1, '990017', 'Auth Done'],
    ['insufficient funds', '5200000000000023', 2, '900003', 'Insufficient Funds'],
    ['declined', '4000000000000036', 2, '900007', 'Declined'],
    ['unprocessed', '5200000000000064', 0, '990022', 'Bank not available'],
    ['invalid card', '4111 1111 1111 1111', 2, '900004', 'Invalid Card Number'],
  ];

  it.each(outcomes)('%s: notify before return, signed, and query agrees', async (_label, card, status, resultCode, resultDesc) => {
    h = await startHarness();
    const { input, initiated, result, returnForm } = await payWith(h, card);
    expect(result.status).toBe(200);
    // The first notify attempt is awaited before the browser gets the return page, as the gateway does.
    expect(h.notifies).toHaveLength(1);
    const notify = h.notifies[0]?.pairs ?? [];
    expect(notify.map(([name]) => name)).toEqual(NOTIFY_ORDER);
    expect(verifyPostedChecksum(notify, SECRET)).toBe(true);
    const fields = Object.fromEntries(notify);
    expect(fields).toMatchObject({
      PAYGATE_ID,
      PAY_REQUEST_ID: initiated.payRequestId,
      REFERENCE: input.reference,
      TRANSACTION_STATUS: String(status),
      RESULT_CODE: resultCode,
      RESULT_DESC: resultDesc,
      CURRENCY: 'BWP',
      AMOUNT: '12550',
      PAY_METHOD: 'CC',
    });
    expect(fields.AUTH_CODE).toMatch(status === 1 ? /^[A-Z0-9]{6}$/ : /^$/);
    expect(fields.TRANSACTION_ID).toMatch(/^\d{8}$/);
    expect(h.notifies[0]?.raw).toContain(`RESULT_DESC=${resultDesc.replace(/ /g, '+')}`);

    expect(returnForm?.action).toBe(input.returnUrl);
    expect(returnForm?.fields).toEqual({
      PAY_REQUEST_ID: initiated.payRequestId,
      TRANSACTION_STATUS: String(status),
      CHECKSUM: returnChecksum({ paygateId: PAYGATE_ID, payRequestId: initiated.payRequestId, transactionStatus: String(status), reference: input.reference }, SECRET),
    });
    expect(result.text).toMatch(/<button type="submit"[^>]*>Return to the shop<\/button>/);
    expect(result.text).toContain('<script src="/payweb3/autosubmit.js"></script>');

    const query = await h.client.query({ payRequestId: initiated.payRequestId, reference: input.reference });
    expect(query.transaction).toMatchObject({ transactionStatus: status, resultCode, amount: 12550, transactionId: fields.TRANSACTION_ID });
    expect(query.fields.slice(0, -1)).toEqual(notify.slice(0, -1));

    expect((await openPaymentPage(h, initiated.payRequestId, initiated.checksum)).text).toContain('TXN_CMP');
  });

  it.each([4, 3] as const)('Cancel gives status %i, 990028 and a blank TRANSACTION_ID; then TXN_CAN', async (cancelStatus) => {
    h = await startHarness({ cancelStatus });
    const { input, initiated, returnForm } = await payWith(h, 'cancel');
    const fields = Object.fromEntries(h.notifies[0]?.pairs ?? []);
    expect(fields).toMatchObject({ TRANSACTION_STATUS: String(cancelStatus), RESULT_CODE: '990028', TRANSACTION_ID: '', AUTH_CODE: '' });
    expect(verifyPostedChecksum(h.notifies[0]?.pairs ?? [], SECRET)).toBe(true);
    expect(returnForm?.fields.TRANSACTION_STATUS).toBe(String(cancelStatus));
    const query = await h.client.query({ payRequestId: initiated.payRequestId, reference: input.reference });
    expect(query.transaction).toMatchObject({ transactionStatus: cancelStatus, resultCode: '990028', transactionId: null });
    expect((await openPaymentPage(h, initiated.payRequestId, initiated.checksum)).text).toContain('TXN_CAN');
  });

  it('a second submit of the same payment is refused (TXN_CMP) and sends no second notify', async () => {
    h = await startHarness();
    const { initiated } = await payWith(h, APPROVED_TEST_CARD);
    const again = await postForm(`${h.baseUrl}/payweb3/pay.trans`, [
      ['PAY_REQUEST_ID', initiated.payRequestId],
      ['CHECKSUM', initiated.checksum],
      ['CARD_NUMBER', APPROVED_TEST_CARD],
      ['EXPIRY', '12/99'],
      ['ACTION', 'pay'],
    ]);
    expect(again.text).toContain('TXN_CMP');
    expect(h.notifies).toHaveLength(1);
  });
});
