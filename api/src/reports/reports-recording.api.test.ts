import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, describeApi, staffClient, type TestServer } from '../../test/harness';
import { createShop, orderBody, parentFor, payInitiated, payThroughSandbox, startShop, type Shop } from '../../test/shop';
import { addChildWithPhotos, addPackage, addPhoto, agePayments } from '../../test/fixtures';
import { thebeToDecimal } from '../../contract/money';
import { PAYMENT_REUSE_MS } from '../payments/payments.service';
import { addStudents, familyWith, setAccessMode } from '../students/students.test-helpers';
import { up as backfill } from '../../../db/migrations/20261202100100_backfill_sales_lines';
import { reportDay } from './reports-recording';
import { credentialTag, signCartLink } from '../carts/cart-token';
import { insertGuardian } from '../carts/carts.test-helpers';

const DAY_MS = 24 * 3600_000;

interface SaleRow {
  albumId: number | null;
  studentId: number | null;
  itemKind: string;
  itemKey: string;
  itemName: string;
  digital: boolean;
  orderFirst: boolean;
  classFirst: boolean;
  quantity: number;
  list: number;
  revenue: number;
  placedDay: number;
  paidDay: number | null;
  paidAt: number | null;
  publishOffset: number | null;
}

const n = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

async function salesLines(server: TestServer, orderId: string): Promise<SaleRow[]> {
  const rows = await server.runtime.knex('sales_lines').where({ order_id: orderId }).orderBy('id');
  return rows.map((row) => ({
    albumId: n(row.album_id),
    studentId: n(row.student_id),
    itemKind: row.item_kind,
    itemKey: row.item_key,
    itemName: row.item_name,
    digital: Boolean(Number(row.digital)),
    orderFirst: Boolean(Number(row.order_first)),
    classFirst: Boolean(Number(row.class_first)),
    quantity: Number(row.quantity),
    list: Number(row.list_thebe),
    revenue: Number(row.revenue_thebe),
    placedDay: Number(row.placed_day),
    paidDay: n(row.paid_day),
    paidAt: n(row.paid_at),
    publishOffset: n(row.publish_offset),
  }));
}

/**
 * The rows the season reports read, written by the product as it goes (docs/reports.md, "Revenue
 * of a line"): one per sale line when an order is placed, marked once when it is paid, through
 * the real API and the sandbox gateway.
 */
describeApi('sales lines for the season reports', () => {
  let server: TestServer;
  let shop: Shop;
  let parent: Client;
  let staff: Client;
  let groupPhoto: number;
  let neo: number;
  /** 2 x Glossy Print + 1 x HD Download, P60.00, one pose. */
  let familyPack: number;
  /** 2 x HD Download, P30.00. */
  let digitalPair: number;
  let today: number;

  beforeAll(async () => {
    ({ server, shop } = await startShop());
    parent = await parentFor(server, shop, { protectedClass: true });
    staff = await staffClient(server);
    groupPhoto = await addPhoto(server, shop.openAlbumId, 'IMG_0500.JPG');
    neo = await addChildWithPhotos(server, shop.openAlbumId, 'Neo Dube', [shop.photoIds[0]!]);
    const print = Number(shop.print.id);
    const download = Number(shop.digital.id);
    familyPack = await addPackage(server, shop.priceListId!, { name: 'Family Pack', priceThebe: 6000, maxPoses: 1, items: [{ itemId: print, quantity: 2 }, { itemId: download, quantity: 1 }] });
    digitalPair = await addPackage(server, shop.priceListId!, { name: 'Digital Pair', priceThebe: 3000, items: [{ itemId: download, quantity: 2 }] }, 1);
    today = reportDay(Date.now());
  });
  afterAll(async () => server.close());

  const place = async (items: unknown[], totalAmount: string, overrides: Record<string, unknown> = {}): Promise<string> => {
    const res = await parent.post('/api/orders', { ...orderBody(shop, []), items, totalAmount, ...overrides });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.order.id as string;
  };
  const single = (photoId: number, product: Shop['print'], quantity = 1, albumId = shop.openAlbumId) => orderBody(shop, [{ photoId, albumId, product, quantity }]).items[0]!;
  const packageLine = (packageId: number, priceThebe: number, photos: number[], quantity = 1) => ({
    packageId,
    photos,
    quantity,
    unitPrice: thebeToDecimal(priceThebe),
    totalPrice: thebeToDecimal(priceThebe * quantity),
  });
  let couponCount = 0;
  const coupon = async (fields: Record<string, unknown>): Promise<string> => {
    const res = await staff.post('/api/coupons', { code: `REPORT-${++couponCount}-${Date.now().toString(36).toUpperCase()}`, schoolId: shop.schoolId, ...fields });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.code as string;
  };

  it('writes one row per line when the order is placed, and marks them once paid: the day, the time, the days since publishing', async () => {
    const orderId = await place([single(shop.photoIds[0]!, shop.print, 2), single(groupPhoto, shop.digital)], '77.50');
    const placed = await salesLines(server, orderId);
    expect(placed).toEqual([
      { albumId: shop.openAlbumId, studentId: neo, itemKind: 'print', itemKey: `product:${shop.print.id}`, itemName: 'Glossy Print', digital: false, orderFirst: true, classFirst: true, quantity: 2, list: 6000, revenue: 6000, placedDay: today, paidDay: null, paidAt: null, publishOffset: null },
      { albumId: shop.openAlbumId, studentId: null, itemKind: 'digital', itemKey: `product:${shop.digital.id}`, itemName: 'HD Download', digital: true, orderFirst: false, classFirst: false, quantity: 1, list: 1750, revenue: 1750, placedDay: today, paidDay: null, paidAt: null, publishOffset: null },
    ]);
    const before = Date.now();
    await payThroughSandbox(server, orderId);
    const after = Date.now();
    const paid = await salesLines(server, orderId);
    for (const [index, row] of paid.entries()) {
      // The class has no published_at (made before publishing existed): its first photo, today, is its publish day.
      expect(row).toEqual({ ...placed[index], paidDay: today, paidAt: expect.any(Number), publishOffset: 0 });
      expect(row.paidAt).toBeGreaterThanOrEqual(before);
      expect(row.paidAt).toBeLessThanOrEqual(after);
    }
  });

  it('a package is one line (its contents are not), keyed by the package, digital only when every content is', async () => {
    const orderId = await place([single(groupPhoto, shop.digital), packageLine(familyPack, 6000, [shop.photoIds[0]!], 2), packageLine(digitalPair, 3000, [groupPhoto])], '167.50');
    expect(await server.runtime.knex('order_items').where({ order_id: orderId })).toHaveLength(4);
    const rows = await salesLines(server, orderId);
    expect(rows.map((row) => [row.albumId, row.studentId, row.itemKind, row.itemKey, row.itemName, row.digital, row.quantity, row.list, row.revenue])).toEqual([
      [shop.openAlbumId, null, 'digital', `product:${shop.digital.id}`, 'HD Download', true, 1, 1750, 1750],
      [shop.openAlbumId, neo, 'package', `package:${familyPack}`, 'Family Pack', false, 2, 12000, 12000],
      [shop.openAlbumId, null, 'package', `package:${digitalPair}`, 'Digital Pair', true, 1, 3000, 3000],
    ]);
    // The digital part of each line: the Family Pack's download counts as digital, by its share of
    // the pack's contents at single prices (1750 of 2 x 3000 + 1750), not as print.
    const parts = (await server.runtime.knex('sales_lines').where({ order_id: orderId }).orderBy('id').select('digital_thebe')).map((row: { digital_thebe: unknown }) => Number(row.digital_thebe));
    expect(parts).toEqual([1750, Math.floor((12000 * 1750) / 7750), 3000]);
  });

  it('a discounted order shares what it charges over its lines, floored, the leftover to the largest remainders', async () => {
    const code = await coupon({ kind: 'percent', value: 15 });
    const items = [single(shop.photoIds[0]!, shop.print, 2), single(groupPhoto, shop.digital), single(shop.photoIds[1]!, shop.print)];
    const quoted = await parent.post('/api/orders/quote', { schoolId: shop.schoolId, items, couponCode: code });
    // 15% of 10750, halves up: 1613; charged 9137.
    expect(quoted.body).toMatchObject({ subtotal: '107.50', couponDiscount: '16.13', total: '91.37' });
    const orderId = await place(items, '91.37', { couponCode: code });
    const rows = await salesLines(server, orderId);
    // 9137 x 6000 / 10750 = 5099.72, x 1750 = 1487.42, x 3000 = 2549.86: floors 9135, the 2 left to .86 and .72.
    expect(rows.map((row) => [row.list, row.revenue])).toEqual([
      [6000, 5100],
      [1750, 1487],
      [3000, 2550],
    ]);
    expect(rows.reduce((sum, row) => sum + row.revenue, 0)).toBe(9137);
  });

  it('a free order: every line earns 0, and it is marked paid by the free payment', async () => {
    const code = await coupon({ kind: 'percent', value: 100 });
    const orderId = await place([single(groupPhoto, shop.print, 3), packageLine(digitalPair, 3000, [groupPhoto])], '0.00', { couponCode: code });
    expect((await salesLines(server, orderId)).map((row) => [row.list, row.revenue, row.paidDay])).toEqual([
      [9000, 0, null],
      [3000, 0, null],
    ]);
    const initiated = await new Client(server.url).post('/api/payment/initiate', { orderId });
    expect(initiated.body).toEqual({ success: true, redirectUrl: `/order-confirmation/${orderId}` });
    expect((await salesLines(server, orderId)).map((row) => [row.revenue, row.paidDay, row.publishOffset])).toEqual([
      [0, today, 0],
      [0, today, 0],
    ]);
  });

  it('an order over two classes: each line keeps its class, and its own days since that class was published', async () => {
    await server.runtime.knex('albums').where({ id: shop.protectedAlbumId }).update({ published_at: Date.now() - 3 * DAY_MS });
    const orderId = await place([single(shop.photoIds[1]!, shop.print), single(shop.protectedPhotoId, shop.digital, 1, shop.protectedAlbumId)], '47.50');
    await payThroughSandbox(server, orderId);
    // Each line is the first of the order in its class; only the first is the first of the order
    // (the reports count orders by these flags: docs/reports.md#how-the-figures-stay-fast).
    expect((await salesLines(server, orderId)).map((row) => [row.albumId, row.revenue, row.paidDay, row.publishOffset, row.orderFirst, row.classFirst])).toEqual([
      [shop.openAlbumId, 3000, today, 0, true, true],
      [shop.protectedAlbumId, 1750, today, 3, false, true],
    ]);
  });

  it('paid twice: the lines are marked by the payment that paid the order, the second changes nothing', async () => {
    const orderId = await place([single(shop.photoIds[1]!, shop.print)], '30.00');
    const old = (await new Client(server.url).post('/api/payment/initiate', { orderId })).body;
    await agePayments(server, orderId, PAYMENT_REUSE_MS + 60_000);
    const fresh = (await new Client(server.url).post('/api/payment/initiate', { orderId })).body;
    expect(fresh.payRequestId).not.toBe(old.payRequestId);
    await payInitiated(server, fresh);
    const first = await salesLines(server, orderId);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ revenue: 3000, paidDay: today });
    await payInitiated(server, old);
    expect((await staff.get(`/api/orders/${orderId}`)).body).toMatchObject({ paymentStatus: 'completed', duplicatePayments: 1 });
    expect(await salesLines(server, orderId)).toEqual(first);
  });

  it('an order cancelled or declined, never paid, keeps its lines unpaid', async () => {
    const cancelled = await place([single(shop.photoIds[1]!, shop.print)], '30.00');
    expect((await staff.put(`/api/orders/${cancelled}`, { orderStatus: 'cancelled' })).status).toBe(200);
    const declined = await place([single(groupPhoto, shop.print)], '30.00');
    await payThroughSandbox(server, declined, { card: '4000000000000036' });
    expect((await staff.get(`/api/orders/${declined}`)).body.paymentStatus).toBe('failed');
    for (const orderId of [cancelled, declined]) {
      expect((await salesLines(server, orderId)).map((row) => [row.revenue, row.placedDay, row.paidDay, row.paidAt, row.publishOffset])).toEqual([[3000, today, null, null, null]]);
    }
  });

  it('the backfill migration writes the same rows for orders placed before the product wrote them', async () => {
    const knex = server.runtime.knex;
    const orderIds = ((await knex('orders').orderBy('id').select('id')) as { id: string }[]).map((row) => row.id);
    expect(orderIds.length).toBe(8);
    const written = new Map<string, SaleRow[]>();
    for (const orderId of orderIds) written.set(orderId, await salesLines(server, orderId));
    // As before this feature: no rows at all, and the orders as they stand.
    await knex('sales_lines').del();
    await backfill(knex);
    const paidAtOf = async (orderId: string) => {
      const payment = await knex('payments').where({ order_id: orderId, status: 'completed' }).orderBy([{ column: 'updated_at' }, { column: 'id' }]).first('updated_at');
      return payment ? Number(payment.updated_at) : null;
    };
    for (const orderId of orderIds) {
      const filled = await salesLines(server, orderId);
      const live = written.get(orderId) ?? [];
      expect(filled.length, orderId).toBe(live.length);
      // paid_at: the time of the payment that paid it (the live row has the paying transaction's clock).
      const paidAt = await paidAtOf(orderId);
      expect(filled.map((row) => ({ ...row, paidAt: null }))).toEqual(live.map((row) => ({ ...row, paidAt: null })));
      expect(filled.map((row) => row.paidAt)).toEqual(live.map((row) => (row.paidAt === null ? null : paidAt)));
    }
    // Run again: orders that have rows are left alone.
    const count = async () => Number((await knex('sales_lines').count({ n: '*' }).first())?.n);
    const before = await count();
    await backfill(knex);
    expect(await count()).toBe(before);
  });
});

/** docs/reports.md, "Families who opened the gallery". */
describeApi('gallery visits for the season reports', () => {
  let server: TestServer;
  let shop: Shop;
  beforeAll(async () => {
    ({ server, shop } = await startShop());
  });
  afterAll(async () => server.close());

  /**
   * A new phone unlocking the school. A grant's key is its tag and end (to the second): two phones
   * unlocking one school in the same second share a key, so each new one here starts a new second.
   */
  const newPhone = async () => {
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
    return parentFor(server, shop);
  };

  const visits = async (schoolId: number) =>
    (await server.runtime.knex('gallery_visits').where({ school_id: schoolId }).orderBy('id')).map((row) => ({
      albumId: n(row.album_id),
      studentId: n(row.student_id),
      kind: row.kind as string,
      visitor: row.visitor as string,
      day: Number(row.day),
    }));

  it('a school grant counts at the unlock and on each class it lists, once per class and day, under one key per grant', async () => {
    const today = reportDay(Date.now());
    const before = (await visits(shop.schoolId)).length;
    const family = await newPhone();
    const [opened, ...none] = (await visits(shop.schoolId)).slice(before);
    expect(none).toEqual([]);
    expect(opened).toEqual({ albumId: null, studentId: null, kind: 'grant', visitor: expect.stringMatching(/^g:[\w-]{22}$/), day: today });
    const ofFamily = async () => (await visits(shop.schoolId)).filter((visit) => visit.visitor === opened!.visitor);
    for (let i = 0; i < 3; i++) expect((await family.get(`/api/albums/${shop.openAlbumId}/photos`)).status).toBe(200);
    expect(await ofFamily()).toEqual([opened, { ...opened, albumId: shop.openAlbumId }]);
    // The class password: the same family (its school grant) on that class.
    expect((await family.post(`/api/albums/${shop.protectedAlbumId}/verify-password`, { password: shop.classPassword })).body.success).toBe(true);
    expect(await ofFamily()).toEqual([opened, { ...opened, albumId: shop.openAlbumId }, { ...opened, albumId: shop.protectedAlbumId }]);
    // A second phone is another grant: another key.
    const other = await newPhone();
    await other.get(`/api/albums/${shop.openAlbumId}/photos`);
    const added = (await visits(shop.schoolId)).slice(before + 3);
    expect(added.map((visit) => visit.albumId)).toEqual([null, shop.openAlbumId]);
    expect(new Set(added.map((visit) => visit.visitor)).size).toBe(1);
    expect(added[0]!.visitor).not.toBe(opened!.visitor);
  });

  it('a gallery page asking again writes nothing: the process remembers what it wrote today', async () => {
    const family = await newPhone();
    await family.get(`/api/albums/${shop.openAlbumId}/photos`);
    const mine = (await visits(shop.schoolId)).at(-1)!;
    expect(mine.albumId).toBe(shop.openAlbumId);
    // Were the list to write again, the row would come back.
    await server.runtime.knex('gallery_visits').where({ visitor: mine.visitor, album_id: shop.openAlbumId }).del();
    for (let i = 0; i < 3; i++) await family.get(`/api/albums/${shop.openAlbumId}/photos`);
    expect(await server.runtime.knex('gallery_visits').where({ visitor: mine.visitor, album_id: shop.openAlbumId })).toHaveLength(0);
  });

  it('staff never count, and a refused list records nothing', async () => {
    const before = await visits(shop.schoolId);
    const staff = await staffClient(server);
    expect((await staff.get(`/api/albums/${shop.openAlbumId}/photos`)).status).toBe(200);
    expect((await new Client(server.url).get(`/api/albums/${shop.openAlbumId}/photos`)).status).toBe(401);
    expect(await visits(shop.schoolId)).toEqual(before);
  });

  it('in a student-code school, each child unlocked by code counts once a day, with their class', async () => {
    const codes = await createShop(server);
    const staff = await staffClient(server);
    const [kabo, naledi] = await addStudents(staff, codes.openAlbumId, ['Kabo', 'Naledi']);
    await setAccessMode(staff, codes.schoolId, 'student_codes');
    const family = await familyWith(server, kabo!.code, naledi!.code);
    await familyWith(server, kabo!.code);
    // Listing the class with a code is not a grant: nothing more.
    expect((await family.get(`/api/albums/${codes.openAlbumId}/photos`)).status).toBe(200);
    const today = reportDay(Date.now());
    expect(await visits(codes.schoolId)).toEqual([
      { albumId: codes.openAlbumId, studentId: kabo!.id, kind: 'child', visitor: `c:${kabo!.id}`, day: today },
      { albumId: codes.openAlbumId, studentId: naledi!.id, kind: 'child', visitor: `c:${naledi!.id}`, day: today },
    ]);
  });

  it('a cart restore link counts the school and the children it grants on the new device', async () => {
    const codes = await createShop(server);
    const staff = await staffClient(server);
    const [tumelo] = await addStudents(staff, codes.openAlbumId, ['Tumelo']);
    await setAccessMode(staff, codes.schoolId, 'student_codes');
    const epoch = Number((await server.runtime.knex('schools').where({ id: shop.schoolId }).first('grant_epoch')).grant_epoch);
    const guardianId = await insertGuardian(server, { email: `restore-${Date.now()}@example.test`, follows: [{ schoolId: shop.schoolId }, { schoolId: codes.schoolId, studentId: tumelo!.id }] });
    const secret = server.config.jwtSecret;
    const stored = String((await server.runtime.knex('students').where({ id: tumelo!.id }).first('code')).code);
    const token = signCartLink(secret, {
      guardianId,
      version: 1,
      expiresAt: Date.now() + 3600_000,
      grants: [
        { kind: 'school', id: shop.schoolId, tag: credentialTag(secret, 'school', shop.schoolId, epoch) },
        { kind: 'student', id: tumelo!.id, tag: credentialTag(secret, 'student', tumelo!.id, stored) },
      ],
    });
    const schoolBefore = await visits(shop.schoolId);
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
    const device = new Client(server.url);
    expect((await device.post('/api/guardians/cart/restore', { token })).status).toBe(200);
    const added = (await visits(shop.schoolId)).slice(schoolBefore.length);
    expect(added).toEqual([{ albumId: null, studentId: null, kind: 'grant', visitor: expect.stringMatching(/^g:/), day: reportDay(Date.now()) }]);
    expect(schoolBefore.map((visit) => visit.visitor)).not.toContain(added[0]!.visitor);
    expect(await visits(codes.schoolId)).toEqual([{ albumId: codes.openAlbumId, studentId: tumelo!.id, kind: 'child', visitor: `c:${tumelo!.id}`, day: reportDay(Date.now()) }]);
    // The restored grant is the one this device now lists classes with.
    await device.get(`/api/albums/${shop.openAlbumId}/photos`);
    expect((await visits(shop.schoolId)).slice(schoolBefore.length + 1)).toEqual([{ ...added[0], albumId: shop.openAlbumId }]);
  });
});
