import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client, type TestServer } from './harness';
import { solidJpeg } from './images';
import { hashPassword } from '../src/http/passwords';
import { insertedId } from '../src/db/knex';
import { thebeToDecimal } from '../contract/money';
import { createPhotoRepository } from '../src/photos/photos.repository';
import { originalNumberOf } from '../src/photos/original-number';

/** A school ready to sell: price list, an open and a protected class, photos with real files. */
export interface Shop {
  schoolId: number;
  slug: string;
  password: string;
  openAlbumId: number;
  protectedAlbumId: number;
  classPassword: string;
  photoIds: number[];
  protectedPhotoId: number;
  print: { id: string; name: string; priceThebe: number };
  digital: { id: string; name: string; priceThebe: number };
}

let counter = 0;

export async function createShop(server: TestServer, options: { closed?: boolean; withPriceList?: boolean } = {}): Promise<Shop> {
  const { knex } = server.runtime;
  const n = ++counter;
  const at = Date.now();
  let priceListId: number | null = null;
  let print = { id: 'print_10x15', name: '10x15 Print', priceThebe: 2500 };
  let digital = { id: 'digital', name: 'Digital Copy', priceThebe: 1500 };
  if (options.withPriceList !== false) {
    priceListId = insertedId(await knex('price_lists').insert({ name: `List ${n}`, description: '', created_at: at, updated_at: at }));
    const printId = insertedId(await knex('price_list_items').insert({ price_list_id: priceListId, product_type: 'Glossy Print', description: '10x15', price_thebe: 3000, position: 0 }));
    const digitalId = insertedId(await knex('price_list_items').insert({ price_list_id: priceListId, product_type: 'HD Download', description: 'file', price_thebe: 1750, position: 1 }));
    print = { id: String(printId), name: 'Glossy Print', priceThebe: 3000 };
    digital = { id: String(digitalId), name: 'HD Download', priceThebe: 1750 };
  }
  const slug = `shop-${n}-${randomUUID().slice(0, 6)}`;
  const password = 'school-pass';
  const closingDate = new Date(Date.now() + (options.closed ? -3 : 30) * 24 * 3600_000).toISOString().slice(0, 10);
  const schoolId = insertedId(
    await knex('schools').insert({
      name: `Shop School ${n}`,
      slug,
      password_hash: await hashPassword(password),
      contact_email: 'office@school.example',
      closing_date: closingDate,
      price_list_id: priceListId,
      created_at: at,
    }),
  );
  const openAlbumId = insertedId(await knex('albums').insert({ school_id: schoolId, name: 'Class 1A', password_hash: null, created_at: at }));
  const classPassword = 'class-pass';
  const protectedAlbumId = insertedId(
    await knex('albums').insert({ school_id: schoolId, name: 'Class 2B', password_hash: await hashPassword(classPassword), created_at: at }),
  );
  const photoIds = [await addPhoto(server, openAlbumId, 'IMG_0423.JPG'), await addPhoto(server, openAlbumId, 'IMG_0424.JPG')];
  const protectedPhotoId = await addPhoto(server, protectedAlbumId, 'DSC_0099.JPG');
  return { schoolId, slug, password, openAlbumId, protectedAlbumId, classPassword, photoIds, protectedPhotoId, print, digital };
}

export async function addPhoto(server: TestServer, albumId: number, originalName: string): Promise<number> {
  const { knex, media } = server.runtime;
  await fs.mkdir(media.tmpDir, { recursive: true });
  const file = path.join(media.tmpDir, `fixture-${randomUUID()}`);
  const bytes = await solidJpeg(320, 240, '#4a8');
  await fs.writeFile(file, bytes);
  const stored = await media.ingestPhoto({ path: file, originalName, size: bytes.length });
  const [row] = await createPhotoRepository(knex).insertMany([
    { albumId, originalName, originalNumber: originalNumberOf(originalName), stored },
  ]);
  return Number(row!.id);
}

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

/** The hosted page, Pay or Cancel and the return, for a payment request the shop already handed out. */
export async function payInitiated(
  server: TestServer,
  initiated: { processUrl: string; payRequestId: string; checksum: string },
  options: { card?: string; cancel?: boolean; followReturn?: boolean } = {},
): Promise<{ location: string | null; payRequestId: string }> {
  const pageRes = await postForm(initiated.processUrl, { PAY_REQUEST_ID: initiated.payRequestId, CHECKSUM: initiated.checksum });
  const page = await pageRes.text();
  if (!page.includes('Card number')) throw new Error(`no card page: ${pageRes.status}`);
  const fields = hiddenInputs(page);
  const done = await postForm(`${server.url}/payweb3/pay.trans`, {
    PAY_REQUEST_ID: fields.PAY_REQUEST_ID!,
    CHECKSUM: fields.CHECKSUM!,
    CARD_NUMBER: options.card ?? '4000000000000002',
    EXPIRY: '12/35',
    CVV: '123',
    ACTION: options.cancel ? 'cancel' : 'pay',
  });
  const returnPage = await done.text();
  if (options.followReturn === false) return { location: null, payRequestId: initiated.payRequestId };
  const action = /<form method="post" action="([^"]+)"/.exec(returnPage)?.[1]?.replace(/&amp;/g, '&');
  if (!action) throw new Error(`no return form: ${done.status}`);
  const back = await postForm(action, hiddenInputs(returnPage));
  if (back.status !== 303) throw new Error(`return answered ${back.status}`);
  return { location: back.headers.get('location'), payRequestId: initiated.payRequestId };
}

export async function waitUntil(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
