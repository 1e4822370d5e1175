import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { bodyParser } from '../../http/body-parser';
import pino from 'pino';
import type { AppState } from '../../http/context';
import { encodeFormPairs, parseFormPairs, signPairs, INITIATE_FIELDS, type FormPairs, type InitiateFields } from './checksum';
import { createPayGateClient, type InitiateInput, type PayGateClient } from './client';
import { createSandboxGateway, type SandboxGateway, type SandboxGatewayOptions } from './sandbox';
import { TEST_PAYGATE_ID } from './checksum.test-helpers';

export const PAYGATE_ID = TEST_PAYGATE_ID;
export const SECRET = 'secret';


async function listen(app: Koa<AppState>): Promise<{ server: Server; url: string }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

export interface ReceivedNotify {
  raw: string;
  pairs: FormPairs;
  at: number;
}

export interface Harness {
  baseUrl: string;
  merchantUrl: string;
  gateway: SandboxGateway;
  client: PayGateClient;
  notifies: ReceivedNotify[];
  /** What the merchant's notify endpoint answers to the n-th notify (0-based). */
  notifyReply: (index: number) => { status: number; body: string };
  initiateInput(overrides?: Partial<InitiateInput>): InitiateInput;
  close(): Promise<void>;
}

export async function startHarness(options: Partial<SandboxGatewayOptions> = {}): Promise<Harness> {
  const gateway = createSandboxGateway({
    paygateId: PAYGATE_ID,
    secret: SECRET,
    logger: pino({ level: 'silent' }),
    notifyRetryDelayMs: 50,
    ...options,
  });
  const gatewayApp = new Koa<AppState>();
  gatewayApp.use(bodyParser());
  gatewayApp.use(gateway.router.routes());
  const gatewayServer = await listen(gatewayApp);

  const merchantApp = new Koa<AppState>();
  merchantApp.use(bodyParser());
  const harness = {
    notifies: [] as ReceivedNotify[],
    notifyReply: (_index: number) => ({ status: 200, body: 'OK' }),
  } as Harness;
  merchantApp.use(async (ctx) => {
    if (ctx.method === 'POST' && ctx.path === '/notify') {
      const raw = ctx.request.rawBody ?? '';
      const index = harness.notifies.length;
      harness.notifies.push({ raw, pairs: parseFormPairs(raw), at: Date.now() });
      const reply = harness.notifyReply(index);
      ctx.status = reply.status;
      ctx.type = 'text/plain';
      ctx.body = reply.body;
    }
  });
  const merchantServer = await listen(merchantApp);

  return Object.assign(harness, {
    baseUrl: gatewayServer.url,
    merchantUrl: merchantServer.url,
    gateway,
    client: createPayGateClient({ paygateId: PAYGATE_ID, secret: SECRET, baseUrl: gatewayServer.url }),
    initiateInput: (overrides: Partial<InitiateInput> = {}): InitiateInput => ({
      reference: `ORD-${Math.random().toString(36).slice(2, 8)}`,
      amountThebe: 12550,
      currency: 'BWP',
      returnUrl: `${merchantServer.url}/return?orderId=7`,
      notifyUrl: `${merchantServer.url}/notify`,
      email: 'parent@example.bw',
      country: 'BWA',
      ...overrides,
    }),
    async close() {
      gateway.close();
      await Promise.all([close(gatewayServer.server), close(merchantServer.server)]);
    },
  });
}

export async function postForm(url: string, pairs: FormPairs): Promise<{ status: number; type: string; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: encodeFormPairs(pairs),
  });
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

/** Initiate fields in canonical order, signed, keeping empty values (unlike the client). */
export function rawInitiate(fields: InitiateFields, key = SECRET): FormPairs {
  const pairs = INITIATE_FIELDS.flatMap((name): FormPairs => (fields[name] === undefined ? [] : [[name, fields[name]]]));
  return signPairs(pairs, key);
}

const decodeEntities = (value: string) =>
  value.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match?.[1] === undefined ? undefined : decodeEntities(match[1]);
}

/** The first form of a page: its action and its named input and select values (hidden and visible). */
export function parseForm(html: string): { action: string; fields: Record<string, string> } {
  const form = /<form\b[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error(`No form in page: ${html.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const [input] of form[1]?.matchAll(/<input\b[^>]*>/g) ?? []) {
    const name = attribute(input, 'name');
    if (name) fields[name] = attribute(input, 'value') ?? '';
  }
  for (const [, open = '', options = ''] of form[1]?.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g) ?? []) {
    const name = attribute(open, 'name');
    const chosen = /<option\b[^>]*\sselected[^>]*>/.exec(options)?.[0] ?? /<option\b[^>]*>/.exec(options)?.[0];
    if (name && chosen) fields[name] = attribute(chosen, 'value') ?? '';
  }
  return { action: attribute(form[0], 'action') ?? '', fields };
}

export async function openPaymentPage(h: Harness, payRequestId: string, checksum: string) {
  return postForm(`${h.baseUrl}/payweb3/process.trans`, [
    ['PAY_REQUEST_ID', payRequestId],
    ['CHECKSUM', checksum],
  ]);
}

/** Initiates, opens the payment page (choosing card when the sandbox offers a choice) and submits its form with the given card or Cancel. */
export async function payWith(h: Harness, card: string | 'cancel', input = h.initiateInput()) {
  const initiated = await h.client.initiate(input);
  const page = await openMethodPage(h, { ...initiated, reference: input.reference }, 'CC');
  const { action, fields } = parseForm(page.text);
  const submitted: FormPairs = Object.entries(fields).map(([name, value]) => [name, name === 'CARD_NUMBER' && card !== 'cancel' ? card : value]);
  submitted.push(['ACTION', card === 'cancel' ? 'cancel' : 'pay']);
  const result = await postForm(`${h.baseUrl}${action}`, submitted);
  return { input, initiated, result, returnForm: result.status === 200 ? parseForm(result.text) : null };
}

/** A request as the browser holds it: what process.trans needs, and the reference for query. */
export interface OpenRequest {
  payRequestId: string;
  checksum: string;
  reference: string;
}

/**
 * Initiates with PAY_METHOD (and PAY_METHOD_DETAIL) posted raw (the client sends neither); the
 * other fields are the harness's usual ones. Resolves the request, or the ERROR code the sandbox answered.
 */
export async function initiateWithMethod(
  h: Harness,
  payMethod: string,
  payMethodDetail?: string,
  overrides: InitiateFields = {},
): Promise<OpenRequest | { error: string }> {
  const input = h.initiateInput();
  const res = await postForm(
    `${h.baseUrl}/payweb3/initiate.trans`,
    rawInitiate({
      PAYGATE_ID,
      REFERENCE: input.reference,
      AMOUNT: String(input.amountThebe),
      CURRENCY: input.currency,
      RETURN_URL: input.returnUrl,
      TRANSACTION_DATE: '2025-01-15 08:30:00',
      LOCALE: 'en',
      COUNTRY: input.country,
      EMAIL: input.email,
      PAY_METHOD: payMethod,
      ...(payMethodDetail !== undefined && { PAY_METHOD_DETAIL: payMethodDetail }),
      NOTIFY_URL: input.notifyUrl,
      ...overrides,
    }),
  );
  const pairs = parseFormPairs(res.text);
  const error = pairs.find(([name]) => name === 'ERROR')?.[1];
  if (error !== undefined) return { error };
  const value = (name: string) => pairs.find(([key]) => key === name)?.[1] ?? '';
  return { payRequestId: value('PAY_REQUEST_ID'), checksum: value('CHECKSUM'), reference: value('REFERENCE') };
}

/** Initiates through the client (no PAY_METHOD: the parent chooses on the sandbox's page). */
export async function initiateOpen(h: Harness, input = h.initiateInput()): Promise<OpenRequest> {
  const initiated = await h.client.initiate(input);
  return { payRequestId: initiated.payRequestId, checksum: initiated.checksum, reference: input.reference };
}

/** process.trans, choosing `payMethod` on the choice page when the sandbox shows one. */
export async function openMethodPage(h: Harness, request: OpenRequest, payMethod: 'CC' | 'EW' | 'BT') {
  const page = await openPaymentPage(h, request.payRequestId, request.checksum);
  if (!page.text.includes('Choose how to pay')) return page;
  return postForm(`${h.baseUrl}/payweb3/process.trans`, [
    ['PAY_REQUEST_ID', request.payRequestId],
    ['CHECKSUM', request.checksum],
    ['PAY_METHOD', payMethod],
  ]);
}

/** Submits the e-wallet page's form: the number (default the page's prefilled one), then approve, decline or cancel. */
export async function payByWallet(
  h: Harness,
  request: OpenRequest,
  options: { action: 'approve' | 'decline' | 'cancel'; mobileNumber?: string; wallet?: string },
) {
  const page = await openMethodPage(h, request, 'EW');
  const { action, fields } = parseForm(page.text);
  if (action !== '/payweb3/ewallet.trans') throw new Error(`not the e-wallet page: ${page.status} ${page.text.slice(0, 300)}`);
  const submitted: FormPairs = Object.entries({
    ...fields,
    ...(options.mobileNumber !== undefined && { MOBILE_NUMBER: options.mobileNumber }),
    ...(options.wallet !== undefined && { WALLET: options.wallet }),
  });
  submitted.push(['ACTION', options.action]);
  const result = await postForm(`${h.baseUrl}${action}`, submitted);
  return { result, returnForm: result.status === 200 ? parseForm(result.text) : null };
}

/** Submits the bank-transfer page's form: "I have made the transfer" (`paid`) or Cancel. */
export async function payByTransfer(h: Harness, request: OpenRequest, action: 'paid' | 'cancel' = 'paid') {
  const page = await openMethodPage(h, request, 'BT');
  const form = parseForm(page.text);
  if (form.action !== '/payweb3/transfer.trans') throw new Error(`not the bank-transfer page: ${page.status} ${page.text.slice(0, 300)}`);
  const submitted: FormPairs = Object.entries(form.fields);
  submitted.push(['ACTION', action]);
  const result = await postForm(`${h.baseUrl}${form.action}`, submitted);
  return { page, result, returnForm: result.status === 200 ? parseForm(result.text) : null };
}

/** The sandbox's back office: settle a received (status 5) request now. */
export function settleRequest(h: Harness, payRequestId: string, outcome: string) {
  return postForm(`${h.baseUrl}/payweb3/sandbox/settle`, [
    ['PAY_REQUEST_ID', payRequestId],
    ['OUTCOME', outcome],
  ]);
}
