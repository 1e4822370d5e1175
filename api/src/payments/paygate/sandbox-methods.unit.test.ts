import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PaymentMethodId } from '../../../contract/payment-methods';
import { pairValue, returnChecksum, verifyPostedChecksum, type FormPairs } from './checksum';
import { APPROVED_TEST_CARD } from './codes';
import { botswanaMobile } from './sandbox-outcome';
import {
  PAYGATE_ID,
  SECRET,
  initiateOpen,
  initiateWithMethod,
  openMethodPage,
  openPaymentPage,
  parseForm,
  payByTransfer,
  payByWallet,
  payWith,
  postForm,
  rawInitiate,
  settleRequest,
  startHarness,
  type Harness,
  type OpenRequest,
} from './sandbox.test-helpers';
import type { SandboxGatewayOptions } from './sandbox';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ALL: PaymentMethodId[] = ['card', 'ewallet', 'bank_transfer'];
const NOTIFY_ORDER = [
  'PAYGATE_ID', 'PAY_REQUEST_ID', 'REFERENCE', 'TRANSACTION_STATUS', 'RESULT_CODE', 'AUTH_CODE', 'CURRENCY', 'AMOUNT',
  'RESULT_DESC', 'TRANSACTION_ID', 'RISK_INDICATOR', 'PAY_METHOD', 'PAY_METHOD_DETAIL', 'CHECKSUM',
];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function start(options: Partial<SandboxGatewayOptions> = {}): Promise<Harness> {
  h = await startHarness({ paymentMethods: ALL, ...options });
  return h;
}

function opened(request: OpenRequest | { error: string }): OpenRequest {
  if ('error' in request) throw new Error(`initiate refused: ${request.error}`);
  return request;
}

const notifyFields = (harness: Harness, index: number) => Object.fromEntries(harness.notifies[index]?.pairs ?? []);
const query = (harness: Harness, request: OpenRequest) => harness.client.query({ payRequestId: request.payRequestId, reference: request.reference });
/** Under the CSP: no inline script, no external asset. */
function expectCspSafe(html: string) {
  expect(html).not.toMatch(/<script(?![^>]*\ssrc=)/);
  expect(html).not.toMatch(/(?:src|href)="https?:/);
}

describe('sandbox initiate with PAY_METHOD', () => {
  it('the account carries exactly PAYMENT_METHODS: a known method it does not carry is PGID_NOT_EN, an unknown one DATA_PM', async () => {
    h = await startHarness();
    expect(await initiateWithMethod(h, 'EW')).toEqual({ error: 'PGID_NOT_EN' });
    expect(await initiateWithMethod(h, 'BT', 'SID')).toEqual({ error: 'PGID_NOT_EN' });
    expect(await initiateWithMethod(h, 'XX')).toEqual({ error: 'DATA_PM' });
    expect(opened(await initiateWithMethod(h, 'CC'))).toMatchObject({ payRequestId: expect.any(String) });
    await h.close();

    await start({ paymentMethods: ['card', 'bank_transfer'] });
    expect(await initiateWithMethod(h, 'EW')).toEqual({ error: 'PGID_NOT_EN' });
    expect(await initiateWithMethod(h, 'DC')).toEqual({ error: 'PGID_NOT_EN' });
    expect(await initiateWithMethod(h, 'BT', 'EFT')).toEqual({ error: 'DATA_PM' });
    expect(h.gateway.transactions.size).toBe(0);
    const request = opened(await initiateWithMethod(h, 'BT', 'SID'));
    expect(h.gateway.transactions.get(request.payRequestId)).toMatchObject({ payMethod: 'BT', payMethodDetail: 'SID', transactionStatus: null });
  });

  it('PAY_METHOD and PAY_METHOD_DETAIL are covered by the checksum', async () => {
    const g = await start();
    const fields = {
      PAYGATE_ID,
      REFERENCE: 'ORD-PM-1',
      AMOUNT: '500',
      CURRENCY: 'BWP',
      RETURN_URL: 'http://127.0.0.1/return',
      TRANSACTION_DATE: '2025-01-15 08:30:00',
      LOCALE: 'en',
      COUNTRY: 'BWA',
      EMAIL: 'a@example.bw',
    };
    const signedWithout = rawInitiate(fields);
    const checksum = pairValue(signedWithout, 'CHECKSUM') ?? '';
    const tampered: FormPairs = [...signedWithout.filter(([name]) => name !== 'CHECKSUM'), ['PAY_METHOD', 'EW'], ['CHECKSUM', checksum]];
    expect((await postForm(`${g.baseUrl}/payweb3/initiate.trans`, tampered)).text).toBe('ERROR=DATA_CHK');
    const signed = rawInitiate({ ...fields, PAY_METHOD: 'EW', PAY_METHOD_DETAIL: 'Orange Money' });
    expect((await postForm(`${g.baseUrl}/payweb3/initiate.trans`, signed)).text).toContain('PAY_REQUEST_ID=');
  });
});

describe('sandbox method choice', () => {
  it('without PAY_METHOD offers the enabled methods, card first, each leading to its page; Cancel cancels', async () => {
    await start();
    const request = await initiateOpen(h!);
    const page = await openPaymentPage(h!, request.payRequestId, request.checksum);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Choose how to pay');
    expect(page.text).toMatch(/<legend>Payment method<\/legend>/);
    const values = [...page.text.matchAll(/name="PAY_METHOD" value="([A-Z]+)"/g)].map((match) => match[1]);
    expect(values).toEqual(['CC', 'EW', 'BT']);
    expect(page.text).toMatch(/<button[^>]*formaction="\/payweb3\/pay.trans"[^>]*>Cancel<\/button>/);
    expectCspSafe(page.text);

    expect((await openMethodPage(h!, request, 'CC')).text).toContain('Card number');
    expect((await openMethodPage(h!, request, 'EW')).text).toContain('Mobile number');
    const transfer = await openMethodPage(h!, request, 'BT');
    expect(transfer.text).toContain('I have made the transfer');
    // A parent who chose here may go back to the choice.
    expect(transfer.text).toContain('Choose another way to pay');

    const cancelled = await postForm(`${h!.baseUrl}/payweb3/pay.trans`, [
      ['PAY_REQUEST_ID', request.payRequestId],
      ['CHECKSUM', request.checksum],
      ['ACTION', 'cancel'],
    ]);
    expect(parseForm(cancelled.text).fields.TRANSACTION_STATUS).toBe('4');
    expect(notifyFields(h!, 0)).toMatchObject({ TRANSACTION_STATUS: '4', PAY_METHOD: '', AUTH_CODE: '' });
  });

  it('a method the account does not carry is refused on the page (DATA_PM); one carried method needs no choice', async () => {
    await start({ paymentMethods: ['card', 'bank_transfer'] });
    const request = await initiateOpen(h!);
    const refused = await openMethodPage(h!, request, 'EW');
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('DATA_PM');
    await h!.close();

    await start({ paymentMethods: ['ewallet'] });
    const only = await initiateOpen(h!);
    const page = await openPaymentPage(h!, only.payRequestId, only.checksum);
    expect(page.text).toContain('Mobile number');
    expect(page.text).not.toContain('Choose another way to pay');
  });

  it('PAY_METHOD at initiate goes straight to that page, and the other pages refuse it', async () => {
    await start();
    const card = opened(await initiateWithMethod(h!, 'CC'));
    expect((await openPaymentPage(h!, card.payRequestId, card.checksum)).text).toContain('Card number');
    const wallet = opened(await initiateWithMethod(h!, 'EW'));
    const page = await openPaymentPage(h!, wallet.payRequestId, wallet.checksum);
    expect(page.text).toContain('Mobile number');
    expect(page.text).not.toContain('Choose another way to pay');
    // Card details for an e-wallet request, and a bank transfer for it: refused, nothing recorded.
    const byCard = await postForm(`${h!.baseUrl}/payweb3/pay.trans`, [
      ['PAY_REQUEST_ID', wallet.payRequestId],
      ['CHECKSUM', wallet.checksum],
      ['CARD_NUMBER', APPROVED_TEST_CARD],
      ['EXPIRY', '12/99'],
      ['ACTION', 'pay'],
    ]);
    expect(byCard.status).toBe(400);
    expect(byCard.text).toContain('DATA_PM');
    const byTransfer = await postForm(`${h!.baseUrl}/payweb3/transfer.trans`, [
      ['PAY_REQUEST_ID', wallet.payRequestId],
      ['CHECKSUM', wallet.checksum],
      ['ACTION', 'paid'],
    ]);
    expect(byTransfer.status).toBe(400);
    expect(h!.gateway.transactions.get(wallet.payRequestId)?.transactionStatus).toBeNull();
    expect(h!.notifies).toHaveLength(0);
  });

  it('card notifies carry PAY_METHOD CC and the card brand', async () => {
    await start();
    await payWith(h!, APPROVED_TEST_CARD);
    await payWith(h!, '378282246310005');
    expect(notifyFields(h!, 0)).toMatchObject({ PAY_METHOD: 'CC', PAY_METHOD_DETAIL: 'Visa' });
    expect(notifyFields(h!, 0).AUTH_CODE).toMatch(/^[A-Z0-9]{6}$/);
    expect(notifyFields(h!, 1)).toMatchObject({ PAY_METHOD: 'CC', PAY_METHOD_DETAIL: 'American Express' });
  });
});

describe('sandbox e-wallet', () => {
  it('the page asks for a labelled Botswana mobile number (inputmode tel) and the wallet, with approve, decline and Cancel', async () => {
    await start();
    const request = opened(await initiateWithMethod(h!, 'EW'));
    const page = await openPaymentPage(h!, request.payRequestId, request.checksum);
    expect(page.status).toBe(200);
    const html = page.text;
    expect(html).toContain('BWP 125.50');
    expect(html).toContain(request.reference);
    expect(html).toMatch(/<label for="mobile-number">Mobile number<\/label>/);
    expect(html).toMatch(/<input id="mobile-number" name="MOBILE_NUMBER" type="tel" inputmode="tel"[^>]*aria-describedby="mobile-hint"/);
    expect(html).toMatch(/id="mobile-hint">[^<]*71 234 567/);
    expect(html).toMatch(/<label for="wallet">Wallet<\/label>\s*<select id="wallet" name="WALLET">/);
    expect(html).toMatch(/<button[^>]*value="approve">Approve on the phone<\/button>/);
    expect(html).toMatch(/<button[^>]*value="decline">Decline on the phone<\/button>/);
    expect(html).toMatch(/<button[^>]*value="cancel" formnovalidate>Cancel<\/button>/);
    expectCspSafe(html);
    expect(parseForm(html)).toMatchObject({ action: '/payweb3/ewallet.trans', fields: { WALLET: 'Orange Money', MOBILE_NUMBER: '71 234 567' } });
  });

  it.each([
    ['approve', '1', '990017', 'Auth Done'],
    ['decline', '2', '900007', 'Declined'],
  ] as const)('%s (no delay): the final notify before the return, EW + wallet, AUTH_CODE 999999; query agrees', async (action, status, resultCode, resultDesc) => {
    await start();
    const request = opened(await initiateWithMethod(h!, 'EW'));
    const { result, returnForm } = await payByWallet(h!, request, { action, mobileNumber: '+267 72 345 678', wallet: 'MyZaka' });
    expect(result.status).toBe(200);
    expect(h!.notifies).toHaveLength(1);
    const pairs = h!.notifies[0]?.pairs ?? [];
    expect(pairs.map(([name]) => name)).toEqual(NOTIFY_ORDER);
    expect(verifyPostedChecksum(pairs, SECRET)).toBe(true);
    const fields = notifyFields(h!, 0);
    expect(fields).toMatchObject({
      PAY_REQUEST_ID: request.payRequestId,
      TRANSACTION_STATUS: status,
      RESULT_CODE: resultCode,
      RESULT_DESC: resultDesc,
      AUTH_CODE: '999999',
      PAY_METHOD: 'EW',
      PAY_METHOD_DETAIL: 'MyZaka',
      AMOUNT: '12550',
    });
    expect(fields.TRANSACTION_ID).toMatch(/^\d{8}$/);
    expect(returnForm?.fields).toEqual({
      PAY_REQUEST_ID: request.payRequestId,
      TRANSACTION_STATUS: status,
      CHECKSUM: returnChecksum({ paygateId: PAYGATE_ID, payRequestId: request.payRequestId, transactionStatus: status, reference: request.reference }, SECRET),
    });
    const answer = await query(h!, request);
    expect(answer.fields.slice(0, -1)).toEqual(pairs.slice(0, -1));
    expect((await openPaymentPage(h!, request.payRequestId, request.checksum)).text).toContain('TXN_CMP');
  });

  it('a wallet named at initiate is the one reported, and no other is offered', async () => {
    await start();
    const request = opened(await initiateWithMethod(h!, 'EW', 'Orange Money'));
    const page = await openPaymentPage(h!, request.payRequestId, request.checksum);
    expect(page.text).not.toContain('<select');
    expect(page.text).toContain('<dt>Wallet</dt><dd>Orange Money</dd>');
    await payByWallet(h!, request, { action: 'approve', wallet: 'Smega' });
    expect(notifyFields(h!, 0).PAY_METHOD_DETAIL).toBe('Orange Money');
  });

  it.each(['71 234 567', '+267 71 234 567', '0026771234567', '7123-4567', ' 77123456 '])('accepts %j', (number) => {
    expect(botswanaMobile(number)).toMatch(/^7\d{7}$/);
  });

  it.each(['61 234 567', '7123456', '712345678', '+27 71 234 567', 'abc', ''])('refuses %j: the form again with the error, nothing recorded', async (number) => {
    expect(botswanaMobile(number)).toBeNull();
    await start();
    const request = opened(await initiateWithMethod(h!, 'EW'));
    const { result } = await payByWallet(h!, request, { action: 'approve', mobileNumber: number, wallet: 'Smega' });
    expect(result.status).toBe(400);
    expect(result.text).toMatch(/role="alert" id="form-error">Enter a Botswana mobile number: 8 digits starting with 7/);
    expect(result.text).toMatch(/<input id="mobile-number"[^>]*aria-describedby="mobile-hint form-error" aria-invalid="true"/);
    expect(parseForm(result.text).fields).toMatchObject({ MOBILE_NUMBER: number, WALLET: 'Smega' });
    expect(h!.gateway.transactions.get(request.payRequestId)?.transactionStatus).toBeNull();
    expect(h!.notifies).toHaveLength(0);
  });

  it('Cancel: status 4, 990028, EW named, no AUTH_CODE', async () => {
    await start();
    const request = opened(await initiateWithMethod(h!, 'EW'));
    const { returnForm } = await payByWallet(h!, request, { action: 'cancel', mobileNumber: '' });
    expect(returnForm?.fields.TRANSACTION_STATUS).toBe('4');
    expect(notifyFields(h!, 0)).toMatchObject({ TRANSACTION_STATUS: '4', RESULT_CODE: '990028', AUTH_CODE: '', TRANSACTION_ID: '', PAY_METHOD: 'EW' });
  });

  it('with a delay: received (5) at once with the return, the phone’s answer as a final notify after the delay', async () => {
    await start({ ewalletDelayMs: 120 });
    const request = opened(await initiateWithMethod(h!, 'EW'));
    const page = await openPaymentPage(h!, request.payRequestId, request.checksum);
    expect(page.text).toContain('120 ms later');
    const { result, returnForm } = await payByWallet(h!, request, { action: 'decline' });
    const returnedAt = Date.now();
    expect(returnForm?.fields.TRANSACTION_STATUS).toBe('5');
    expect(result.text).toContain('Payment received, awaiting confirmation');
    expect(h!.notifies).toHaveLength(1);
    const first = notifyFields(h!, 0);
    expect(first).toMatchObject({ TRANSACTION_STATUS: '5', RESULT_CODE: '', RESULT_DESC: 'Received by PayGate', AUTH_CODE: '999999', PAY_METHOD: 'EW', PAY_METHOD_DETAIL: 'Orange Money' });
    expect(verifyPostedChecksum(h!.notifies[0]?.pairs ?? [], SECRET)).toBe(true);
    expect((await query(h!, request)).transaction).toMatchObject({ transactionStatus: 5, resultCode: null, authCode: '999999' });

    await vi.waitFor(() => expect(h?.notifies).toHaveLength(2), { timeout: 2000, interval: 10 });
    expect((h!.notifies[1]?.at ?? 0) - returnedAt).toBeGreaterThanOrEqual(90);
    const final = notifyFields(h!, 1);
    expect(final).toMatchObject({ TRANSACTION_STATUS: '2', RESULT_CODE: '900007', AUTH_CODE: '999999', PAY_METHOD: 'EW', TRANSACTION_ID: first.TRANSACTION_ID });
    expect(verifyPostedChecksum(h!.notifies[1]?.pairs ?? [], SECRET)).toBe(true);
    expect((await query(h!, request)).transaction).toMatchObject({ transactionStatus: 2, resultCode: '900007' });
  });
});

describe('sandbox bank transfer', () => {
  it('the page shows the reference to use, the amount, the bank details, the transfer button and Cancel', async () => {
    await start({ finalNotifyMs: 5000 });
    const request = opened(await initiateWithMethod(h!, 'BT', 'SID'));
    const page = await openPaymentPage(h!, request.payRequestId, request.checksum);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(new RegExp(`<dt>Reference</dt><dd class="reference">${request.reference}</dd>`));
    expect(page.text).toContain('<dt>Amount</dt><dd>BWP 125.50</dd>');
    expect(page.text).toMatch(/<dt>Account number<\/dt><dd>[\d ]+<\/dd>/);
    expect(page.text).toMatch(/<button[^>]*value="paid">I have made the transfer<\/button>/);
    expect(page.text).toMatch(/<button[^>]*value="cancel">Cancel<\/button>/);
    expect(page.text).toContain('5 seconds later');
    expectCspSafe(page.text);
  });

  it.each([
    ['approve', '1', '990017'],
    ['decline', '2', '900007'],
  ] as const)('received (5) at once; the final notify (%s) after SANDBOX_FINAL_NOTIFY_MS; query answers 5, then the result', async (finalNotify, status, resultCode) => {
    await start({ finalNotify, finalNotifyMs: 150 });
    const request = opened(await initiateWithMethod(h!, 'BT', 'SID'));
    const { result, returnForm } = await payByTransfer(h!, request);
    const returnedAt = Date.now();
    expect(result.status).toBe(200);
    expect(returnForm?.fields.TRANSACTION_STATUS).toBe('5');
    expect(h!.notifies).toHaveLength(1);
    const first = notifyFields(h!, 0);
    expect(h!.notifies[0]?.pairs.map(([name]) => name)).toEqual(NOTIFY_ORDER);
    expect(first).toMatchObject({ TRANSACTION_STATUS: '5', RESULT_CODE: '', RESULT_DESC: 'Received by PayGate', AUTH_CODE: '999999', PAY_METHOD: 'BT', PAY_METHOD_DETAIL: 'SID' });
    expect(first.TRANSACTION_ID).toMatch(/^\d{8}$/);
    expect((await query(h!, request)).transaction).toMatchObject({ transactionStatus: 5 });
    expect((await openPaymentPage(h!, request.payRequestId, request.checksum)).text).toContain('TXN_CMP');

    await vi.waitFor(() => expect(h?.notifies).toHaveLength(2), { timeout: 2000, interval: 10 });
    expect((h!.notifies[1]?.at ?? 0) - returnedAt).toBeGreaterThanOrEqual(120);
    const final = notifyFields(h!, 1);
    expect(final).toMatchObject({ TRANSACTION_STATUS: status, RESULT_CODE: resultCode, AUTH_CODE: '999999', PAY_METHOD: 'BT', PAY_METHOD_DETAIL: 'SID', TRANSACTION_ID: first.TRANSACTION_ID });
    expect(verifyPostedChecksum(h!.notifies[1]?.pairs ?? [], SECRET)).toBe(true);
    const answer = await query(h!, request);
    expect(answer.fields.slice(0, -1)).toEqual(h!.notifies[1]?.pairs.slice(0, -1));
    expect(await settleRequest(h!, request.payRequestId, 'approve')).toMatchObject({ status: 409 });
    await sleep(200);
    expect(h!.notifies).toHaveLength(2);
  });

  it('SANDBOX_FINAL_NOTIFY none: stays pending until the back office settles it', async () => {
    await start({ finalNotify: 'none', finalNotifyMs: 20 });
    const request = opened(await initiateWithMethod(h!, 'BT', 'SID'));
    const { page } = await payByTransfer(h!, request);
    expect(page.text).toContain('/payweb3/sandbox/settle');
    await sleep(150);
    expect(h!.notifies).toHaveLength(1);
    expect((await query(h!, request)).transaction.transactionStatus).toBe(5);

    const settled = await settleRequest(h!, request.payRequestId, 'approve');
    expect(settled).toMatchObject({ status: 200, text: 'Settled: TRANSACTION_STATUS=1' });
    expect(settled.type).toMatch(/^text\/plain/);
    // The first attempt of the final notify is made before the answer.
    expect(h!.notifies).toHaveLength(2);
    expect(notifyFields(h!, 1)).toMatchObject({ TRANSACTION_STATUS: '1', RESULT_CODE: '990017', AUTH_CODE: '999999', PAY_METHOD: 'BT' });
    expect((await query(h!, request)).transaction.transactionStatus).toBe(1);
    expect(await settleRequest(h!, request.payRequestId, 'decline')).toMatchObject({ status: 409 });
  });

  it('Cancel: status 4 with BT named, nothing scheduled', async () => {
    await start({ finalNotifyMs: 20 });
    const request = opened(await initiateWithMethod(h!, 'BT', 'SID'));
    const { returnForm } = await payByTransfer(h!, request, 'cancel');
    expect(returnForm?.fields.TRANSACTION_STATUS).toBe('4');
    await sleep(100);
    expect(h!.notifies).toHaveLength(1);
    expect(notifyFields(h!, 0)).toMatchObject({ TRANSACTION_STATUS: '4', RESULT_CODE: '990028', PAY_METHOD: 'BT', PAY_METHOD_DETAIL: 'SID', AUTH_CODE: '' });
  });

  it('a lost notify (suppressNotify): query still answers 5, then the final result', async () => {
    await start({ suppressNotify: true, finalNotifyMs: 60 });
    const request = opened(await initiateWithMethod(h!, 'BT', 'SID'));
    await payByTransfer(h!, request);
    expect((await query(h!, request)).transaction.transactionStatus).toBe(5);
    await vi.waitFor(async () => expect((await query(h!, request)).transaction.transactionStatus).toBe(1), { timeout: 2000, interval: 20 });
    expect(h!.notifies).toHaveLength(0);
  });
});

describe('sandbox back office: settle', () => {
  it('settles a pending request early, and its timer then sends nothing more', async () => {
    await start({ finalNotify: 'approve', finalNotifyMs: 150 });
    const request = opened(await initiateWithMethod(h!, 'BT', 'SID'));
    await payByTransfer(h!, request);
    expect(await settleRequest(h!, request.payRequestId, 'decline')).toMatchObject({ status: 200, text: 'Settled: TRANSACTION_STATUS=2' });
    await sleep(300);
    expect(h!.notifies.map((notify) => pairValue(notify.pairs, 'TRANSACTION_STATUS'))).toEqual(['5', '2']);
  });

  it('answers 404 for an unknown request, 409 for one not pending, 400 without a valid OUTCOME', async () => {
    await start();
    expect(await settleRequest(h!, '00000000-0000-0000-0000-000000000000', 'approve')).toMatchObject({ status: 404 });
    const unpaid = await initiateOpen(h!);
    expect(await settleRequest(h!, unpaid.payRequestId, 'approve')).toMatchObject({ status: 409 });
    const { initiated } = await payWith(h!, APPROVED_TEST_CARD);
    const card = await settleRequest(h!, initiated.payRequestId, 'decline');
    expect(card).toMatchObject({ status: 409, text: expect.stringContaining('TRANSACTION_STATUS 1') });
    expect(await settleRequest(h!, unpaid.payRequestId, 'maybe')).toMatchObject({ status: 400 });
    expect((await postForm(`${h!.baseUrl}/payweb3/sandbox/settle`, [['OUTCOME', 'approve']])).status).toBe(400);
    expect(h!.gateway.transactions.get(initiated.payRequestId)?.transactionStatus).toBe(1);
  });

  it('the final notify keeps the retry rules, and a received notify still unanswered is not retried after it', async () => {
    await start({ finalNotify: 'none', notifyRetryDelayMs: 80 });
    // The received notify fails; the final one fails once, then is acknowledged.
    const replies = [
      { status: 500, body: 'down' },
      { status: 500, body: 'down' },
    ];
    h!.notifyReply = (index) => replies[index] ?? { status: 200, body: 'OK' };
    const request = opened(await initiateWithMethod(h!, 'BT', 'SID'));
    await payByTransfer(h!, request);
    await settleRequest(h!, request.payRequestId, 'approve');
    await vi.waitFor(() => expect(h?.notifies).toHaveLength(3), { timeout: 2000, interval: 10 });
    await sleep(250);
    expect(h!.notifies.map((notify) => pairValue(notify.pairs, 'TRANSACTION_STATUS'))).toEqual(['5', '1', '1']);
    expect(h!.gateway.transactions.get(request.payRequestId)).toMatchObject({ notifyAcknowledged: true, transactionStatus: 1 });
  });
});

describe('sandbox memory', () => {
  it('keeps a pending request past the 30-minute page life and the 25-hour retention until settled; forgets old finished ones', async () => {
    let clock = Date.parse('2025-06-01T10:00:00Z');
    await start({ finalNotify: 'none', now: () => clock });
    const pending = opened(await initiateWithMethod(h!, 'BT', 'SID'));
    await payByTransfer(h!, pending);
    const { initiated: card, input } = await payWith(h!, APPROVED_TEST_CARD);
    clock += 31 * 60 * 1000;
    // The page is closed after 30 minutes, but the request is still known.
    expect((await openPaymentPage(h!, pending.payRequestId, pending.checksum)).text).toContain('TXN_CMP');
    clock += 25 * 60 * 60 * 1000;
    await initiateOpen(h!);
    expect(h!.gateway.transactions.has(card.payRequestId)).toBe(false);
    await expect(h!.client.query({ payRequestId: card.payRequestId, reference: input.reference })).rejects.toMatchObject({ code: 'ND_INV_PRID' });
    expect((await query(h!, pending)).transaction.transactionStatus).toBe(5);
    expect(await settleRequest(h!, pending.payRequestId, 'approve')).toMatchObject({ status: 200 });
    expect((await query(h!, pending)).transaction.transactionStatus).toBe(1);
  });

  it('past maxRequests forgets the oldest finished request first, never a pending one while others can go', async () => {
    await start({ finalNotify: 'none', maxRequests: 3 });
    const pending = opened(await initiateWithMethod(h!, 'BT', 'SID'));
    await payByTransfer(h!, pending);
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push((await initiateOpen(h!)).payRequestId);
    expect(h!.gateway.transactions.size).toBe(3);
    expect(h!.gateway.transactions.has(pending.payRequestId)).toBe(true);
    expect([...h!.gateway.transactions.keys()]).toEqual([pending.payRequestId, ids[2], ids[3]]);
  });
});
