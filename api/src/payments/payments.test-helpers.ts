import { expect } from 'vitest';
import { Client, startTestServer, type JsonResponse, type TestServer } from '../../test/harness';
import { createShop, orderBody, parentFor, postForm, standardLines, type Shop } from '../../test/shop';
import { parseForm } from './paygate/sandbox.test-helpers';
import { startMailCatcher, type CapturedMail, type MailCatcher } from '../../test/mail-catcher';
import { signPairs, type FormPairs } from './paygate/checksum';

/** The sandbox's public test key, which signs callbacks in the payment suites. */
export const KEY = 'secret';

/** A payment suite's world: a server sending mail to a real SMTP catcher, a shop and a parent. */
export interface World {
  server: TestServer;
  shop: Shop;
  parent: Client;
  mail: MailCatcher;
}

export async function world(env: Record<string, string> = {}): Promise<World> {
  const mail = await startMailCatcher();
  const server = await startTestServer({ SMTP_URL: mail.url, SANDBOX_NOTIFY_RETRY_MS: '50', ...env });
  const shop = await createShop(server);
  const parent = await parentFor(server, shop);
  return { server, shop, parent, mail };
}

/** Stops a world's server and its mail catcher. */
export async function closeWorld(w: World): Promise<void> {
  await w.server.close();
  await w.mail.close();
}

/** Runs a test in a world of its own (the server started with `env`), closed afterwards whatever happens. */
export async function withWorld(env: Record<string, string>, run: (w: World) => Promise<void>): Promise<void> {
  const w = await world(env);
  try {
    await run(w);
  } finally {
    await closeWorld(w);
  }
}

/** The parent places the standard order for `email`; resolves the new order's id. */
export async function placeOrder(w: World, email = 'payer@example.test'): Promise<string> {
  const res = await w.parent.post('/api/orders', orderBody(w.shop, standardLines(w.shop), { customerEmail: email }));
  expect(res.status).toBe(201);
  return res.body.order.id;
}

/** Asks the API to open a payment for an order, as the browser does; the answer as it comes. */
export function initiate(w: World, orderId: string): Promise<JsonResponse> {
  return new Client(w.server.url).post('/api/payment/initiate', { orderId });
}

/** The confirmation e-mails the catcher holds for an order. */
export const confirmations = (w: World, orderId: string): CapturedMail[] => w.mail.messages.filter((m) => m.subject.includes(orderId));

/** A `payments` row as the database holds it: what a notify about it names. */
export interface PaymentRow {
  paygate_id: string;
  pay_request_id: string;
  reference: string;
  currency: string;
  amount_thebe: number | string;
}

/** An approved notify for a payment, exactly as PayGate would sign it; `overrides` replace any field. */
export function approvedNotify(payment: PaymentRow, overrides: Record<string, string> = {}): FormPairs {
  const fields: Record<string, string> = {
    PAYGATE_ID: payment.paygate_id,
    PAY_REQUEST_ID: payment.pay_request_id,
    REFERENCE: payment.reference,
    TRANSACTION_STATUS: '1',
    RESULT_CODE: '990017',
    AUTH_CODE: 'X1Y2Z3',
    CURRENCY: payment.currency,
    AMOUNT: String(payment.amount_thebe),
    RESULT_DESC: 'Auth Done',
    TRANSACTION_ID: '78705178',
    RISK_INDICATOR: 'AX',
    PAY_METHOD: 'CC',
    PAY_METHOD_DETAIL: 'Visa',
    ...overrides,
  };
  return signPairs(Object.entries(fields), KEY);
}

/** What the initiate endpoint handed the browser. */
export interface InitiatedRequest {
  processUrl: string;
  payRequestId: string;
  checksum: string;
}

/** The browser's form post: its answer's status and text. */
async function submit(url: string, fields: [string, string][]): Promise<{ status: number; text: string }> {
  const res = await postForm(url, fields);
  return { status: res.status, text: await res.text() };
}

/** The first form of a sandbox page: its action and named values (inputs and selects). */
function firstForm(html: string): { action: string; fields: [string, string][] } {
  const { action, fields } = parseForm(html);
  return { action, fields: Object.entries(fields) };
}

/**
 * The sandbox's page for a request (docs/payments.md, "The built-in sandbox"), choosing `payMethod`
 * on its choice page when it shows one, then the method's form submitted with `extra` fields; then
 * the return form posted back to the shop as the browser would. Resolves the shop's 303 Location.
 */
async function payOnSandboxPage(
  server: TestServer,
  initiated: InitiatedRequest,
  payMethod: 'EW' | 'BT',
  formAction: string,
  extra: [string, string][],
): Promise<{ location: string; returnStatus: string }> {
  const identity: [string, string][] = [
    ['PAY_REQUEST_ID', initiated.payRequestId],
    ['CHECKSUM', initiated.checksum],
  ];
  let page = await submit(initiated.processUrl, identity);
  if (page.text.includes('Choose how to pay')) page = await submit(initiated.processUrl, [...identity, ['PAY_METHOD', payMethod]]);
  const form = firstForm(page.text);
  if (form.action !== formAction) throw new Error(`not the ${formAction} page: ${page.status} ${page.text.slice(0, 300)}`);
  const names = new Set(extra.map(([name]) => name));
  const done = await submit(`${server.url}${form.action}`, [...form.fields.filter(([name]) => !names.has(name)), ...extra]);
  const back = firstForm(done.text);
  const returnStatus = back.fields.find(([name]) => name === 'TRANSACTION_STATUS')?.[1] ?? '';
  const shop = await postForm(back.action, back.fields);
  if (shop.status !== 303) throw new Error(`return answered ${shop.status}`);
  return { location: shop.headers.get('location') ?? '', returnStatus };
}

/** The e-wallet page: a Botswana mobile number, then the phone approves, declines, or the parent cancels. */
export function payByWallet(server: TestServer, initiated: InitiatedRequest, action: 'approve' | 'decline' | 'cancel', mobileNumber = '71 234 567') {
  return payOnSandboxPage(server, initiated, 'EW', '/payweb3/ewallet.trans', [
    ['MOBILE_NUMBER', mobileNumber],
    ['ACTION', action],
  ]);
}

/** The bank-transfer page: "I have made the transfer" (`paid`) or Cancel. */
export function payByTransfer(server: TestServer, initiated: InitiatedRequest, action: 'paid' | 'cancel' = 'paid') {
  return payOnSandboxPage(server, initiated, 'BT', '/payweb3/transfer.trans', [['ACTION', action]]);
}

/** The sandbox's back office settles a received request now (`POST /payweb3/sandbox/settle`). */
export function settleInSandbox(server: TestServer, payRequestId: string, outcome: 'approve' | 'decline'): Promise<Response> {
  return postForm(`${server.url}/payweb3/sandbox/settle`, [
    ['PAY_REQUEST_ID', payRequestId],
    ['OUTCOME', outcome],
  ]);
}
