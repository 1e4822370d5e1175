import { expect } from 'vitest';
import { Client, startTestServer, type JsonResponse, type TestServer } from '../../test/harness';
import { createShop, orderBody, parentFor, standardLines, type Shop } from '../../test/shop';
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
