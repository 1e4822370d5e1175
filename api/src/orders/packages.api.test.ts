import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, describeApi, type TestServer } from '../../test/harness';
import { addPhoto, createShop, orderBody, parentFor, startShop, type Shop } from '../../test/shop';
import { addChildWithPhotos, addPackage, holdChildByCode, setSiblingDiscount } from '../../test/fixtures';
import { ORDER_MSG, PACKAGE_MSG } from '../../contract/messages';
import { thebeToDecimal } from '../../contract/money';

/**
 * Packages and the family discount over HTTP (docs/packages-and-coupons.md, "Filling a package",
 * "Family pricing", "Orders keep their prices"): what is stored, what the quote shows, and what is
 * refused with nothing written.
 */
describeApi('orders with packages and the family discount', () => {
  let server: TestServer;
  let shop: Shop;
  let parent: Client;
  /** Two photos of Neo, one of Lesedi, one group photo. */
  let neo: { id: number; photos: [number, number] };
  let lesedi: { id: number; photo: number };
  let groupPhoto: number;
  /** 2 x Glossy Print (P30.00) + 1 x HD Download (P17.50): worth P77.50, sold for P60.00, up to 2 poses. */
  let familyPack: number;
  /** The same contents, one pose, P55.00. */
  let classic: number;
  /** 2 x HD Download, P30.00. */
  let digitalPair: number;

  beforeAll(async () => {
    ({ server, shop, parent } = await startShop());
    const neoSecond = await addPhoto(server, shop.openAlbumId, 'IMG_0425.JPG');
    groupPhoto = await addPhoto(server, shop.openAlbumId, 'IMG_0500.JPG');
    neo = { id: await addChildWithPhotos(server, shop.openAlbumId, 'Neo Dube', [shop.photoIds[0]!, neoSecond]), photos: [shop.photoIds[0]!, neoSecond] };
    lesedi = { id: await addChildWithPhotos(server, shop.openAlbumId, 'Lesedi Dube', [shop.photoIds[1]!]), photo: shop.photoIds[1]! };
    // The family holds both children by code: only then are they named to it and count as its children (docs/access.md, "Whose photo it is").
    await holdChildByCode(server, parent, neo.id);
    await holdChildByCode(server, parent, lesedi.id);
    const print = Number(shop.print.id);
    const download = Number(shop.digital.id);
    familyPack = await addPackage(server, shop.priceListId!, { name: 'Family Pack', priceThebe: 6000, maxPoses: 2, items: [{ itemId: print, quantity: 2 }, { itemId: download, quantity: 1 }] });
    classic = await addPackage(server, shop.priceListId!, { name: 'Classic', priceThebe: 5500, maxPoses: 1, items: [{ itemId: print, quantity: 2 }, { itemId: download, quantity: 1 }] }, 1);
    digitalPair = await addPackage(server, shop.priceListId!, { name: 'Digital Pair', priceThebe: 3000, items: [{ itemId: download, quantity: 2 }] }, 2);
  });
  afterAll(async () => server.close());

  const packageLine = (packageId: number, priceThebe: number, photos: (number | { photoId: number; albumId: number })[], quantity = 1) => ({
    packageId,
    photos,
    quantity,
    unitPrice: thebeToDecimal(priceThebe),
    totalPrice: thebeToDecimal(priceThebe * quantity),
  });
  const printLine = (photoId: number, quantity = 1) => orderBody(shop, [{ photoId, albumId: shop.openAlbumId, product: shop.print, quantity }]).items[0]!;
  const downloadLine = (photoId: number) => orderBody(shop, [{ photoId, albumId: shop.openAlbumId, product: shop.digital, quantity: 1 }]).items[0]!;
  const body = (items: unknown[], totalAmount: string, overrides: Record<string, unknown> = {}) => ({ ...orderBody(shop, []), items, totalAmount, ...overrides });
  const orderCount = async () => Number((await server.runtime.knex('orders').count({ n: '*' }).first())?.n);

  it('stores a package line with its contents as unpriced lines, and the totals', async () => {
    const res = await parent.post(
      '/api/orders',
      body([packageLine(familyPack, 6000, [{ photoId: neo.photos[0], albumId: shop.openAlbumId }, neo.photos[1]], 2), downloadLine(groupPhoto)], '137.50'),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const order = res.body.order;
    expect(order).toMatchObject({ subtotal: '137.50', siblingDiscount: '0.00', couponCode: null, couponDiscount: '0.00', totalAmount: '137.50' });
    expect(order.packages).toEqual([
      expect.objectContaining({ packageId: familyPack, name: 'Family Pack', quantity: 2, unitPrice: '60.00', totalPrice: '120.00', itemsValue: '155.00', studentId: neo.id, studentName: 'Neo Dube' }),
    ]);
    const packageLineId = order.packages[0].id;
    const contents = order.items.filter((item: { packageLineId: number | null }) => item.packageLineId === packageLineId);
    expect(contents.map((item: Record<string, unknown>) => [item.photoId, item.productName, item.quantity, item.unitPrice, item.totalPrice, item.digital])).toEqual([
      [neo.photos[0], 'Glossy Print', 4, '0.00', '0.00', false],
      [neo.photos[1], 'HD Download', 2, '0.00', '0.00', true],
    ]);
    expect(order.items.filter((item: { packageLineId: number | null }) => item.packageLineId === null)).toEqual([
      expect.objectContaining({ photoId: groupPhoto, productName: 'HD Download', quantity: 1, totalPrice: '17.50' }),
    ]);
    const row = await server.runtime.knex('orders').where({ id: order.id }).first();
    expect([Number(row.total_thebe), Number(row.subtotal_thebe), Number(row.sibling_discount_thebe)]).toEqual([13750, 13750, 0]);
    const stored = await server.runtime.knex('order_items').where({ order_id: order.id }).whereNotNull('order_package_id').orderBy('id');
    expect(stored.map((item) => [item.kind, Number(item.quantity), Number(item.unit_thebe), Number(item.total_thebe), Number(item.student_id)])).toEqual([
      ['print', 4, 0, 0, neo.id],
      ['digital', 2, 0, 0, neo.id],
    ]);
  });

  it('quotes what the order will be, whatever prices the cart holds, and stores nothing', async () => {
    const before = await orderCount();
    const stale = { ...printLine(lesedi.photo), unitPrice: '1.00', totalPrice: '1.00' };
    const res = await parent.post('/api/orders/quote', { schoolId: shop.schoolId, items: [packageLine(familyPack, 6000, [neo.photos[0]]), stale] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      lines: [
        { packageId: familyPack, productType: null, quantity: 1, unitPrice: '60.00', totalPrice: '60.00', itemsValue: '77.50', studentId: neo.id },
        { packageId: null, productType: shop.print.id, quantity: 1, unitPrice: '30.00', totalPrice: '30.00', itemsValue: null, studentId: lesedi.id },
      ],
      subtotal: '90.00',
      siblingDiscount: '0.00',
      siblingPercent: null,
      couponCode: null,
      couponDiscount: '0.00',
      total: '90.00',
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await orderCount()).toBe(before);
    // The same access rule as placing the order.
    expect((await new Client(server.url).post('/api/orders/quote', { schoolId: shop.schoolId, items: [packageLine(familyPack, 6000, [neo.photos[0]])] })).status).toBe(401);
  });

  it('refuses the wrong count of photos, too many poses and two children, with nothing stored', async () => {
    const before = await orderCount();
    const cases: [unknown, string, string][] = [
      // Neither one, nor one per content row (2), nor one per piece (3).
      [packageLine(familyPack, 6000, [neo.photos[0], neo.photos[1], neo.photos[0], neo.photos[1]]), 'PACKAGE_PHOTOS', PACKAGE_MSG.photosCount],
      [packageLine(classic, 5500, [neo.photos[0], neo.photos[1]]), 'PACKAGE_POSES', PACKAGE_MSG.tooManyPoses(1)],
      [packageLine(familyPack, 6000, [neo.photos[0], lesedi.photo]), 'PACKAGE_ONE_CHILD', PACKAGE_MSG.oneChild],
      [packageLine(familyPack, 6000, [neo.photos[0], groupPhoto]), 'PACKAGE_ONE_CHILD', PACKAGE_MSG.oneChild],
    ];
    for (const [line, code, message] of cases) {
      const res = await parent.post('/api/orders', body([line], '60.00'));
      expect(res.status, code).toBe(400);
      expect(res.body).toMatchObject({ code, message });
      expect((await parent.post('/api/orders/quote', { schoolId: shop.schoolId, items: [line] })).body.code).toBe(code);
    }
    // A package whose photos may not be shown to this family: the class password was never given.
    const locked = await parent.post('/api/orders', body([packageLine(digitalPair, 3000, [shop.protectedPhotoId])], '30.00'));
    expect(locked.status).toBe(403);
    expect(await orderCount()).toBe(before);
  });

  it('refuses a package that is no longer offered, or is another school\'s', async () => {
    const other = await createShop(server);
    const foreign = await addPackage(server, other.priceListId!, { name: 'Other Pack', priceThebe: 1000, items: [{ itemId: Number(other.digital.id), quantity: 1 }] });
    for (const packageId of [foreign, 999_999]) {
      const res = await parent.post('/api/orders', body([{ ...packageLine(packageId, 1000, [neo.photos[0]]), packageName: 'Spring Pack' }], '10.00'));
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'PACKAGE_UNAVAILABLE', message: PACKAGE_MSG.packageUnavailable('Spring Pack') });
    }
  });

  it('refuses tampered package prices and a total that is not the server\'s', async () => {
    const before = await orderCount();
    const good = packageLine(familyPack, 6000, [neo.photos[0]]);
    const tampered = [
      body([{ ...good, unitPrice: '6.00', totalPrice: '6.00' }], '6.00'),
      body([{ ...good, totalPrice: '30.00' }], '60.00'),
      body([good], '50.00'),
      body([good], '77.50'),
    ];
    for (const attempt of tampered) {
      const res = await parent.post('/api/orders', attempt);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'PRICE_MISMATCH', message: ORDER_MSG.pricesChanged });
    }
    expect(await orderCount()).toBe(before);
  });

  it('after the closing date sells only packages without prints', async () => {
    const closed = await createShop(server, { closed: true });
    const closedParent = await parentFor(server, closed);
    const withPrint = await addPackage(server, closed.priceListId!, { name: 'Print Pack', priceThebe: 4000, items: [{ itemId: Number(closed.print.id), quantity: 1 }, { itemId: Number(closed.digital.id), quantity: 1 }] });
    const digitalOnly = await addPackage(server, closed.priceListId!, { name: 'Files', priceThebe: 3000, items: [{ itemId: Number(closed.digital.id), quantity: 2 }] }, 1);
    const photo = closed.photoIds[0]!;
    const refused = await closedParent.post('/api/orders', { ...orderBody(closed, []), items: [packageLine(withPrint, 4000, [photo])], totalAmount: '40.00' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'PRINTS_CLOSED', message: ORDER_MSG.printsClosed('Print Pack') });
    const sold = await closedParent.post('/api/orders', { ...orderBody(closed, []), items: [packageLine(digitalOnly, 3000, [photo])], totalAmount: '30.00' });
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    expect(sold.body.order.packages[0]).toMatchObject({ name: 'Files', totalPrice: '30.00', itemsValue: '35.00' });
  });

  it('takes the family discount off the second child, shown in the quote and kept on the order', async () => {
    const family = await createShop(server);
    const familyParent = await parentFor(server, family);
    const extra = await addPhoto(server, family.openAlbumId, 'IMG_0600.JPG');
    const group = await addPhoto(server, family.openAlbumId, 'IMG_0601.JPG');
    const first = await addChildWithPhotos(server, family.openAlbumId, 'Kabo', [family.photoIds[0]!]);
    const second = await addChildWithPhotos(server, family.openAlbumId, 'Onalenna', [family.photoIds[1]!]);
    const third = await addChildWithPhotos(server, family.openAlbumId, 'Tumi', [extra]);
    for (const child of [first, second, third]) await holdChildByCode(server, familyParent, child);
    await setSiblingDiscount(server, family.priceListId!, { percent: 10, maxChildren: 2 });
    // Kabo: 2 prints P60.00; Onalenna: a download P17.50; Tumi: a download P17.50 (beyond maxChildren); a group print P30.00.
    const lines = orderBody(family, [
      { photoId: family.photoIds[0]!, albumId: family.openAlbumId, product: family.print, quantity: 2 },
      { photoId: family.photoIds[1]!, albumId: family.openAlbumId, product: family.digital, quantity: 1 },
      { photoId: extra, albumId: family.openAlbumId, product: family.digital, quantity: 1 },
      { photoId: group, albumId: family.openAlbumId, product: family.print, quantity: 1 },
    ]).items;
    // Onalenna and Tumi tie at P17.50: the lower student id is the second child. 10% of 1750 = 175.
    expect(second).toBeLessThan(third);
    const quote = await familyParent.post('/api/orders/quote', { schoolId: family.schoolId, items: lines, couponCode: '' });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body).toMatchObject({ subtotal: '125.00', siblingDiscount: '1.75', siblingPercent: 10, couponDiscount: '0.00', total: '123.25' });
    expect(quote.body.lines.map((line: { studentId: number | null }) => line.studentId)).toEqual([first, second, third, null]);

    const before = await orderCount();
    const undiscounted = await familyParent.post('/api/orders', { ...orderBody(family, []), items: lines, totalAmount: '125.00' });
    expect(undiscounted.status).toBe(409);
    expect(undiscounted.body.code).toBe('PRICE_MISMATCH');
    expect(await orderCount()).toBe(before);

    const placed = await familyParent.post('/api/orders', { ...orderBody(family, []), items: lines, totalAmount: quote.body.total });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.order).toMatchObject({ subtotal: '125.00', siblingDiscount: '1.75', totalAmount: '123.25' });
    const row = await server.runtime.knex('orders').where({ id: placed.body.order.id }).first();
    expect([Number(row.subtotal_thebe), Number(row.sibling_discount_thebe), Number(row.total_thebe)]).toEqual([12500, 175, 12325]);

    // The order keeps its prices when the list changes afterwards (docs/packages-and-coupons.md, "Orders keep their prices").
    await setSiblingDiscount(server, family.priceListId!, null);
    await server.runtime.knex('price_list_items').where({ id: Number(family.print.id) }).update({ price_thebe: 9900 });
    const later = await server.runtime.services.commerce.orders.get(placed.body.order.id);
    expect([later.subtotalThebe, later.siblingDiscountThebe, later.totalThebe, later.items[0]?.unitThebe]).toEqual([12500, 175, 12325, 3000]);
  });

  it('prices a package the family discount counts as its child\'s line', async () => {
    const family = await createShop(server);
    const familyParent = await parentFor(server, family);
    const older = await addChildWithPhotos(server, family.openAlbumId, 'Kabo', [family.photoIds[0]!]);
    const younger = await addChildWithPhotos(server, family.openAlbumId, 'Onalenna', [family.photoIds[1]!]);
    for (const child of [older, younger]) await holdChildByCode(server, familyParent, child);
    await setSiblingDiscount(server, family.priceListId!, { percent: 25, maxChildren: 3 });
    const pack = await addPackage(server, family.priceListId!, { name: 'Pair', priceThebe: 4500, items: [{ itemId: Number(family.print.id), quantity: 1 }, { itemId: Number(family.digital.id), quantity: 1 }] });
    // Kabo: the Pair P45.00; Onalenna: a print P30.00, 25% off: 750.
    const items = [
      packageLine(pack, 4500, [family.photoIds[0]!]),
      orderBody(family, [{ photoId: family.photoIds[1]!, albumId: family.openAlbumId, product: family.print, quantity: 1 }]).items[0],
    ];
    const placed = await familyParent.post('/api/orders', { ...orderBody(family, []), items, totalAmount: '67.50' });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.order).toMatchObject({ subtotal: '75.00', siblingDiscount: '7.50', totalAmount: '67.50' });
    expect(placed.body.order.items.find((item: { packageLineId: number | null }) => item.packageLineId === null)).toMatchObject({ studentId: younger, totalPrice: '30.00' });
  });
});
