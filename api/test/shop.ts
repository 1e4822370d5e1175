import { randomUUID } from 'node:crypto';
import { Client, startTestServer, type TestServer } from './harness';
import { addPhoto, createAlbum, createPriceList, createSchool } from './fixtures';
import { thebeToDecimal } from '../contract/money';
import type { PaymentMethodId } from '../contract/payment-methods';

/** A school ready to sell: price list, an open and a protected class, photos with real files. */
export interface Shop {
  schoolId: number;
  schoolName: string;
  slug: string;
  password: string;
  openAlbumId: number;
  protectedAlbumId: number;
  classPassword: string;
  photoIds: number[];
  protectedPhotoId: number;
  print: { id: string; name: string; priceThebe: number };
  digital: { id: string; name: string; priceThebe: number };
  /** Null for a shop made without a price list. */
  priceListId: number | null;
}

let counter = 0;

export async function createShop(server: TestServer, options: { closed?: boolean; withPriceList?: boolean } = {}): Promise<Shop> {
  const n = ++counter;
  let priceListId: number | null = null;
  let print = { id: 'print_10x15', name: '10x15 Print', priceThebe: 2500 };
  let digital = { id: 'digital', name: 'Digital Copy', priceThebe: 1500 };
  if (options.withPriceList !== false) {
    const list = await createPriceList(server, `List ${n}`, [
      { productName: 'Glossy Print', description: '10x15', priceThebe: 3000 },
      { productName: 'HD Download', description: 'file', priceThebe: 1750, kind: 'digital' },
    ]);
    priceListId = list.id;
    print = { id: String(list.itemIds[0]), name: 'Glossy Print', priceThebe: 3000 };
    digital = { id: String(list.itemIds[1]), name: 'HD Download', priceThebe: 1750 };
  }
  const slug = `shop-${n}-${randomUUID().slice(0, 6)}`;
  const password = 'school-pass';
  const closingDate = new Date(Date.now() + (options.closed ? -3 : 30) * 24 * 3600_000).toISOString().slice(0, 10);
  const school = await createSchool(server, {
    name: `Shop School ${n}`,
    slug,
    password,
    contactEmail: 'office@school.example',
    closingDate,
    priceListId,
  });
  const schoolId = school.id;
  const openAlbumId = await createAlbum(server, schoolId, { name: 'Class 1A' });
  const classPassword = 'class-pass';
  const protectedAlbumId = await createAlbum(server, schoolId, { name: 'Class 2B', password: classPassword });
  const photoIds = [await addPhoto(server, openAlbumId, 'IMG_0423.JPG'), await addPhoto(server, openAlbumId, 'IMG_0424.JPG')];
  const protectedPhotoId = await addPhoto(server, protectedAlbumId, 'DSC_0099.JPG');
  return { schoolId, schoolName: school.name, slug, password, openAlbumId, protectedAlbumId, classPassword, photoIds, protectedPhotoId, print, digital, priceListId };
}

/** A photo in the album with real files (a plain JPEG), as an upload would store it. */
export { addPhoto } from './fixtures';

/** A parent's browser that unlocked the school (and, if asked, the protected class). */
export async function parentFor(server: TestServer, shop: Shop, options: { protectedClass?: boolean } = {}): Promise<Client> {
  const parent = new Client(server.url);
  const unlocked = await parent.post(`/api/schools/${shop.slug}/verify`, { password: shop.password });
  if (unlocked.status !== 200) throw new Error(`school verify failed: ${unlocked.status}`);
  if (options.protectedClass) {
    const res = await parent.post(`/api/albums/${shop.protectedAlbumId}/verify-password`, { password: shop.classPassword });
    if (!res.body.success) throw new Error('class verify failed');
  }
  return parent;
}

/** A fresh server with a shop and a parent who unlocked its school: the start of the checkout suites. */
export async function startShop(): Promise<{ server: TestServer; shop: Shop; parent: Client }> {
  const server = await startTestServer();
  const shop = await createShop(server);
  return { server, shop, parent: await parentFor(server, shop) };
}

export interface Line {
  photoId: number;
  albumId: number;
  product: { id: string; name: string; priceThebe: number };
  quantity: number;
}

/** The order body the PWA sends, with the right prices unless a test changes them. */
export function orderBody(shop: Shop, lines: Line[], overrides: Record<string, unknown> = {}) {
  const items = lines.map((line) => ({
    photoId: line.photoId,
    albumId: line.albumId,
    productType: line.product.id,
    productName: line.product.name,
    productDescription: 'No description available',
    quantity: line.quantity,
    unitPrice: thebeToDecimal(line.product.priceThebe),
    totalPrice: thebeToDecimal(line.product.priceThebe * line.quantity),
  }));
  const total = lines.reduce((sum, line) => sum + line.product.priceThebe * line.quantity, 0);
  return {
    schoolId: shop.schoolId,
    customerName: 'Mpho Dube',
    customerEmail: `parent-${randomUUID().slice(0, 8)}@example.test`,
    customerPhone: '+267 71 000 000',
    studentName: 'Kagiso Dube',
    totalAmount: thebeToDecimal(total),
    items,
    notes: '',
    ...overrides,
  };
}

export const standardLines = (shop: Shop): Line[] => [
  { photoId: shop.photoIds[0]!, albumId: shop.openAlbumId, product: shop.print, quantity: 2 },
  { photoId: shop.photoIds[1]!, albumId: shop.openAlbumId, product: shop.digital, quantity: 1 },
];

/** Posts a urlencoded form like a browser, without following redirects. */
export async function postForm(url: string, fields: Record<string, string> | [string, string][]): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

function hiddenInputs(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([A-Z_]+)" value="([^"]*)"/g)) fields[match[1]!] = match[2]!.replace(/&amp;/g, '&');
  return fields;
}

/**
 * Pays an order the way a browser does: initiate, the hosted page, Pay or Cancel, then the return
 * POST back to the shop. Returns the 303 Location the shop answered.
 */
export async function payThroughSandbox(
  server: TestServer,
  orderId: string,
  options: { card?: string; cancel?: boolean; followReturn?: boolean } = {},
): Promise<{ location: string | null; payRequestId: string }> {
  const initiated = await new Client(server.url).post('/api/payment/initiate', { orderId, amount: '0.01', returnUrl: 'https://evil.example/' });
  if (!initiated.body.success) throw new Error(`initiate failed: ${JSON.stringify(initiated.body)}`);
  return payInitiated(server, initiated.body, options);
}

/** What `POST /api/payment/initiate` hands the browser. */
export interface Initiated {
  processUrl: string;
  payRequestId: string;
  checksum: string;
}

/** The PayWeb3 PAY_METHOD of each of our method ids, as the sandbox's choice page names them. */
const SANDBOX_PAY_METHOD: Record<PaymentMethodId, string> = { card: 'CC', ewallet: 'EW', bank_transfer: 'BT' };

/** Asks the shop to open a payment, with a method when given (`{ orderId, method }`, as the PWA posts it). */
export async function initiatePayment(server: TestServer, orderId: string, method?: PaymentMethodId): Promise<Initiated> {
  const initiated = await new Client(server.url).post('/api/payment/initiate', { orderId, ...(method && { method }) });
  if (!initiated.body.success) throw new Error(`initiate failed: ${initiated.status} ${JSON.stringify(initiated.body)}`);
  return initiated.body;
}

/**
 * The sandbox's page for a request: process.trans, and when the sandbox offers a choice (the
 * request named no PAY_METHOD and several methods are enabled) the given method's button.
 */
async function openSandboxPage(initiated: Initiated, method: PaymentMethodId): Promise<string> {
  const fields = { PAY_REQUEST_ID: initiated.payRequestId, CHECKSUM: initiated.checksum };
  const first = await postForm(initiated.processUrl, fields);
  const page = await first.text();
  if (!page.includes('Choose how to pay')) return page;
  const chosen = await postForm(initiated.processUrl, { ...fields, PAY_METHOD: SANDBOX_PAY_METHOD[method] });
  return chosen.text();
}

export interface SandboxPaid {
  /** The 303 Location the shop answered the return with; null when the return was not followed. */
  location: string | null;
  payRequestId: string;
  /** The TRANSACTION_STATUS the gateway's return page carries (5 while a slow method is pending). */
  transactionStatus: number;
}

/** Posts the sandbox's return page to the shop like the browser's auto-submit; expects the shop's 303. */
async function returnToShop(server: TestServer, done: Response, payRequestId: string, followReturn = true): Promise<SandboxPaid> {
  const returnPage = await done.text();
  const fields = hiddenInputs(returnPage);
  const transactionStatus = Number(fields.TRANSACTION_STATUS);
  if (done.status !== 200 || !fields.TRANSACTION_STATUS) throw new Error(`no return page: ${done.status} ${returnPage.slice(0, 300)}`);
  if (!followReturn) return { location: null, payRequestId, transactionStatus };
  const action = /<form method="post" action="([^"]+)"/.exec(returnPage)?.[1]?.replace(/&amp;/g, '&');
  if (!action) throw new Error(`no return form: ${done.status}`);
  const back = await postForm(action, fields);
  if (back.status !== 303) throw new Error(`return answered ${back.status}`);
  return { location: back.headers.get('location'), payRequestId, transactionStatus };
}

/** The hosted page, Pay or Cancel and the return, for a payment request the shop already handed out. */
export async function payInitiated(
  server: TestServer,
  initiated: Initiated,
  options: { card?: string; cancel?: boolean; followReturn?: boolean } = {},
): Promise<{ location: string | null; payRequestId: string }> {
  const page = await openSandboxPage(initiated, 'card');
  if (!page.includes('Card number')) throw new Error(`no card page: ${page.slice(0, 300)}`);
  const fields = hiddenInputs(page);
  const done = await postForm(`${server.url}/payweb3/pay.trans`, {
    PAY_REQUEST_ID: fields.PAY_REQUEST_ID!,
    CHECKSUM: fields.CHECKSUM!,
    CARD_NUMBER: options.card ?? '4000000000000002',
    EXPIRY: '12/35',
    CVV: '123',
    ACTION: options.cancel ? 'cancel' : 'pay',
  });
  if (options.followReturn === false) {
    await done.text();
    return { location: null, payRequestId: initiated.payRequestId };
  }
  const { location, payRequestId } = await returnToShop(server, done, initiated.payRequestId);
  return { location, payRequestId };
}

export interface EwalletOptions {
  /** Typed into "Mobile number"; default the page's prefilled 71 234 567. A number the sandbox refuses throws. */
  mobileNumber?: string;
  /** The phone's answer, or the page's Cancel; default approve. */
  outcome?: 'approve' | 'decline' | 'cancel';
  /** One of the sandbox's wallets (Orange Money, MyZaka, Smega) when the page offers the choice. */
  wallet?: string;
  followReturn?: boolean;
}

/**
 * Pays an order by e-wallet the way a browser does: initiate with `method: 'ewallet'`, the
 * sandbox's e-wallet page, the phone's answer, then the return. With SANDBOX_EWALLET_DELAY_MS 0 the
 * notify carries the final result (1 or 2) before the return; above 0 it is "received" (5) and
 * the final notify follows after the delay.
 */
export async function payByEwallet(server: TestServer, orderId: string, options: EwalletOptions = {}): Promise<SandboxPaid> {
  return payInitiatedByEwallet(server, await initiatePayment(server, orderId, 'ewallet'), options);
}

/** The e-wallet page, the phone's answer (or Cancel) and the return, for a request the shop handed out. */
export async function payInitiatedByEwallet(server: TestServer, initiated: Initiated, options: EwalletOptions = {}): Promise<SandboxPaid> {
  const page = await openSandboxPage(initiated, 'ewallet');
  if (!page.includes('Mobile number')) throw new Error(`no e-wallet page: ${page.slice(0, 300)}`);
  const fields = hiddenInputs(page);
  const done = await postForm(`${server.url}/payweb3/ewallet.trans`, {
    PAY_REQUEST_ID: fields.PAY_REQUEST_ID!,
    CHECKSUM: fields.CHECKSUM!,
    MOBILE_NUMBER: options.mobileNumber ?? '71 234 567',
    ...(options.wallet && { WALLET: options.wallet }),
    ACTION: options.outcome ?? 'approve',
  });
  if (done.status === 400) throw new Error(`the sandbox refused the e-wallet form: ${/role="alert"[^>]*>([^<]*)/.exec(await done.text())?.[1] ?? ''}`);
  return returnToShop(server, done, initiated.payRequestId, options.followReturn);
}

export interface BankTransferOptions {
  /** The page's Cancel instead of "I have made the transfer". */
  cancel?: boolean;
  followReturn?: boolean;
}

/**
 * Pays an order by bank transfer the way a browser does: initiate with `method: 'bank_transfer'`,
 * the sandbox's transfer page, "I have made the transfer", then the return. The gateway answers
 * "received" (5) at once; the final notify comes SANDBOX_FINAL_NOTIFY_MS later as SANDBOX_FINAL_NOTIFY
 * says, or, with `none`, only when settled through `settleInSandbox()`.
 */
export async function payByBankTransfer(server: TestServer, orderId: string, options: BankTransferOptions = {}): Promise<SandboxPaid> {
  return payInitiatedByBankTransfer(server, await initiatePayment(server, orderId, 'bank_transfer'), options);
}

/** The bank-transfer page, "I have made the transfer" (or Cancel) and the return, for a request the shop handed out. */
export async function payInitiatedByBankTransfer(server: TestServer, initiated: Initiated, options: BankTransferOptions = {}): Promise<SandboxPaid> {
  const page = await openSandboxPage(initiated, 'bank_transfer');
  if (!page.includes('I have made the transfer')) throw new Error(`no bank-transfer page: ${page.slice(0, 300)}`);
  const fields = hiddenInputs(page);
  const done = await postForm(`${server.url}/payweb3/transfer.trans`, {
    PAY_REQUEST_ID: fields.PAY_REQUEST_ID!,
    CHECKSUM: fields.CHECKSUM!,
    ACTION: options.cancel ? 'cancel' : 'paid',
  });
  return returnToShop(server, done, initiated.payRequestId, options.followReturn);
}

/**
 * The sandbox's back office (`POST /payweb3/sandbox/settle`): ends a received (5) e-wallet or bank
 * transfer now and sends its final notify, whose first attempt is made before this answers. 200
 * settled, 404 unknown request, 409 not pending (docs/payments.md, "Settling by hand").
 */
export async function settleInSandbox(server: TestServer, payRequestId: string, outcome: 'approve' | 'decline'): Promise<{ status: number; text: string }> {
  const res = await postForm(`${server.url}/payweb3/sandbox/settle`, { PAY_REQUEST_ID: payRequestId, OUTCOME: outcome });
  return { status: res.status, text: await res.text() };
}

export async function waitUntil(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
