import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeApi, staffClient, type Client, type TestServer } from '../../test/harness';
import { addPhoto, createShop, orderBody, startShop, type Shop } from '../../test/shop';
import { addChildWithPhotos, addPackage, holdChildByCode, setSiblingDiscount } from '../../test/fixtures';
import { COUPON_MSG, ORDER_MSG } from '../../contract/messages';

/**
 * A coupon on the quote and on the order (docs/packages-and-coupons.md, "The order of discounts"):
 * coupons are made through the staff API (`POST /api/coupons`), so this suite needs the coupons
 * service wired into commerce (services.ts).
 */
describeApi('orders with a coupon', () => {
  let server: TestServer;
  let shop: Shop;
  let parent: Client;
  let staff: Client;
  let pack: number;
  let older: number;
  let younger: number;
  let groupPhoto: number;

  const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 24 * 3600_000).toISOString().slice(0, 10);
  let codes = 0;
  async function coupon(fields: Record<string, unknown>): Promise<{ id: number; code: string }> {
    const code = `TEST-${++codes}-${Date.now().toString(36).toUpperCase()}`;
    const res = await staff.post('/api/coupons', { code, schoolId: shop.schoolId, kind: 'percent', value: 10, ...fields });
    if (res.status !== 201) throw new Error(`coupon: ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body.id, code: res.body.code };
  }

  beforeAll(async () => {
    ({ server, shop, parent } = await startShop());
    staff = await staffClient(server);
    groupPhoto = await addPhoto(server, shop.openAlbumId, 'IMG_0700.JPG');
    older = await addChildWithPhotos(server, shop.openAlbumId, 'Kabo', [shop.photoIds[0]!]);
    younger = await addChildWithPhotos(server, shop.openAlbumId, 'Onalenna', [shop.photoIds[1]!]);
    // The family holds both by code: the family discount counts only such children (docs/access.md, "Whose photo it is").
    await holdChildByCode(server, parent, older);
    await holdChildByCode(server, parent, younger);
    pack = await addPackage(server, shop.priceListId!, { name: 'Pair', priceThebe: 4000, items: [{ itemId: Number(shop.print.id), quantity: 1 }, { itemId: Number(shop.digital.id), quantity: 1 }] });
  });
  afterAll(async () => server.close());

  const packageLine = { packageId: 0, photos: [0], quantity: 1, unitPrice: '40.00', totalPrice: '40.00' };
  /** Kabo: 2 prints P60.00; Onalenna: a download P17.50; a group print P30.00. Subtotal P107.50. */
  const lines = () =>
    orderBody(shop, [
      { photoId: shop.photoIds[0]!, albumId: shop.openAlbumId, product: shop.print, quantity: 2 },
      { photoId: shop.photoIds[1]!, albumId: shop.openAlbumId, product: shop.digital, quantity: 1 },
      { photoId: groupPhoto, albumId: shop.openAlbumId, product: shop.print, quantity: 1 },
    ]).items;
  const place = (items: unknown[], totalAmount: string, couponCode: string | null) => parent.post('/api/orders', { ...orderBody(shop, []), items, totalAmount, couponCode });
  const quote = (items: unknown[], couponCode: string | null) => parent.post('/api/orders/quote', { schoolId: shop.schoolId, items, couponCode });

  it('a percent coupon, typed in any case, is quoted and kept on the order, and holds a use', async () => {
    const { id, code } = await coupon({ kind: 'percent', value: 10 });
    const quoted = await quote(lines(), code.toLowerCase());
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
    // 10% of 10750, rounded half up: 1075.
    expect(quoted.body).toMatchObject({ subtotal: '107.50', siblingDiscount: '0.00', couponCode: code, couponDiscount: '10.75', total: '96.75' });
    const tampered = await place(lines(), '107.50', code);
    expect(tampered.status).toBe(409);
    expect(tampered.body).toMatchObject({ code: 'PRICE_MISMATCH', message: ORDER_MSG.pricesChanged });
    const placed = await place(lines(), quoted.body.total, code.toLowerCase());
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.order).toMatchObject({ subtotal: '107.50', couponCode: code, couponDiscount: '10.75', totalAmount: '96.75' });
    const row = await server.runtime.knex('orders').where({ id: placed.body.order.id }).first();
    expect([Number(row.coupon_id), Number(row.coupon_discount_thebe), Number(row.total_thebe)]).toEqual([id, 1075, 9675]);
    expect((await staff.get(`/api/coupons/${id}`)).body).toMatchObject({ usesHeld: 1, usesPaid: 0 });
  });

  it('comes after the family discount, and an amount coupon never takes the total below zero', async () => {
    await setSiblingDiscount(server, shop.priceListId!, { percent: 20, maxChildren: 2 });
    try {
      const { code } = await coupon({ kind: 'percent', value: 10 });
      // Sibling: 20% of Onalenna's 1750 = 350; base 10750 - 350 = 10400; 10%: 1040; total 9360.
      const quoted = await quote(lines(), code);
      expect(quoted.body).toMatchObject({ subtotal: '107.50', siblingDiscount: '3.50', siblingPercent: 20, couponDiscount: '10.40', total: '93.60' });
      expect(quoted.body.lines.map((line: { studentId: number | null }) => line.studentId)).toEqual([older, younger, null]);
      const placed = await place(lines(), '93.60', code);
      expect(placed.status, JSON.stringify(placed.body)).toBe(201);
      expect(placed.body.order).toMatchObject({ siblingDiscount: '3.50', couponDiscount: '10.40', totalAmount: '93.60' });

      const { code: big } = await coupon({ kind: 'amount', value: '500.00' });
      const free = await quote(lines(), big);
      expect(free.body).toMatchObject({ couponDiscount: '104.00', total: '0.00' });
    } finally {
      await setSiblingDiscount(server, shop.priceListId!, null);
    }
  });

  it('refuses a coupon below its minimum order, or with nothing to apply to', async () => {
    const { code: minimum } = await coupon({ minOrder: '200.00' });
    for (const res of [await quote(lines(), minimum), await place(lines(), '96.75', minimum)]) {
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'COUPON_MINIMUM', message: COUPON_MSG.minimumOrder('P200.00') });
    }
    const { code: singlesOnly } = await coupon({ excludesPackages: true });
    const onlyPackage = [{ ...packageLine, packageId: pack, photos: [shop.photoIds[0]!] }];
    const refused = await place(onlyPackage, '36.00', singlesOnly);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'COUPON_NOT_APPLICABLE', message: COUPON_MSG.nothingEligible });
    // With a single line beside the package, only that line is discounted: 10% of 3000.
    const mixed = [...onlyPackage, lines()[2]];
    expect((await quote(mixed, singlesOnly)).body).toMatchObject({ subtotal: '70.00', couponDiscount: '3.00', total: '67.00' });
  });

  it('refuses unknown, expired, not yet started and other schools\' coupons, storing nothing', async () => {
    const before = Number((await server.runtime.knex('orders').count({ n: '*' }).first())?.n);
    const other = await createShop(server);
    const foreign = await staff.post('/api/coupons', { code: `OTHER-${Date.now().toString(36).toUpperCase()}`, schoolId: other.schoolId, kind: 'percent', value: 10 });
    expect(foreign.status).toBe(201);
    const { code: expired } = await coupon({ startsOn: day(-10), endsOn: day(-2) });
    const { code: later } = await coupon({ startsOn: day(5) });
    const cases: [string, number, string][] = [
      ['NO-SUCH-CODE', 400, 'COUPON_INVALID'],
      [foreign.body.code, 400, 'COUPON_INVALID'],
      [expired, 409, 'COUPON_EXPIRED'],
      [later, 409, 'COUPON_NOT_STARTED'],
    ];
    for (const [code, status, errorCode] of cases) {
      for (const res of [await quote(lines(), code), await place(lines(), '96.75', code)]) {
        expect(res.status, code).toBe(status);
        expect(res.body.code, code).toBe(errorCode);
      }
    }
    expect(Number((await server.runtime.knex('orders').count({ n: '*' }).first())?.n)).toBe(before);
  });
});
