import { afterAll, beforeAll, expect, it } from 'vitest';
import { PACKAGE_MSG } from '../../contract/messages';
import { PACKAGE_EDITOR_MSG } from '../../contract/staff-screen-messages';
import { thebeToDecimal } from '../../contract/money';
import { describeApi, staffClient, type Client, type TestServer } from '../../test/harness';
import { addPhoto, orderBody, startShop, type Shop } from '../../test/shop';
import { addPackage } from '../../test/fixtures';
import { readZip } from '../../test/zip';
import { parseCsv } from '../../../pwa/test/parse-csv';
import { pay } from '../print-batches/print-batches.test-helpers';

/**
 * A package may take several photos for one product (issue 41, point 9; docs/packages-and-coupons.md,
 * "Filling a package"): 2 x Glossy Print can be two different photos, each piece one photo in the
 * order of the package's items, and the lab gets each photo's print.
 */
describeApi('a package filled with a photo per piece', () => {
  let server: TestServer;
  let shop: Shop;
  let parent: Client;
  let photos: [number, number, number];
  /** 2 x Glossy Print (P30.00) + 1 x HD Download (P17.50), P60.00, any number of different photos. */
  let pair: number;
  /** The same contents, at most 2 different photos. */
  let twoPoses: number;

  beforeAll(async () => {
    ({ server, shop, parent } = await startShop());
    photos = [shop.photoIds[0]!, shop.photoIds[1]!, await addPhoto(server, shop.openAlbumId, 'IMG_0425.JPG')];
    const items = [
      { itemId: Number(shop.print.id), quantity: 2 },
      { itemId: Number(shop.digital.id), quantity: 1 },
    ];
    pair = await addPackage(server, shop.priceListId!, { name: 'Print Pair', priceThebe: 6000, items });
    twoPoses = await addPackage(server, shop.priceListId!, { name: 'Two Poses', priceThebe: 6000, maxPoses: 2, items }, 1);
  });
  afterAll(async () => server.close());

  const line = (packageId: number, chosen: number[], quantity = 1) => ({
    packageId,
    photos: chosen.map((photoId) => ({ photoId, albumId: shop.openAlbumId })),
    quantity,
    unitPrice: '60.00',
    totalPrice: thebeToDecimal(6000 * quantity),
  });
  const body = (items: unknown[], total: string) => ({ ...orderBody(shop, []), items, totalAmount: total });
  const contents = (order: { items: { packageLineId: number | null; photoId: number; productName: string; quantity: number; digital: boolean }[] }) =>
    order.items.filter((item) => item.packageLineId !== null).map((item) => [item.productName, item.photoId, item.quantity, item.digital]);

  it('prices it on the server and stores one line per product and photo', async () => {
    const [a, b, c] = photos;
    const quote = await parent.post('/api/orders/quote', { schoolId: shop.schoolId, items: [{ ...line(pair, [a, b, c]), unitPrice: '1.00', totalPrice: '1.00' }] });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body.total).toBe('60.00');

    const res = await parent.post('/api/orders', body([line(pair, [a, b, c], 2)], '120.00'));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(contents(res.body.order)).toEqual([
      ['Glossy Print', a, 2, false],
      ['Glossy Print', b, 2, false],
      ['HD Download', c, 2, true],
    ]);
    // The same photo for both prints is one line of two, as with one photo per content row.
    const same = await parent.post('/api/orders', body([line(pair, [a, a, b])], '60.00'));
    expect(same.status, JSON.stringify(same.body)).toBe(201);
    expect(contents(same.body.order)).toEqual([
      ['Glossy Print', a, 2, false],
      ['HD Download', b, 1, true],
    ]);
  });

  it('sends each photo\'s print to the lab, in the ZIP and on the order sheet', async () => {
    const [a, b] = photos;
    const placed = await parent.post('/api/orders', body([line(twoPoses, [a, b, a])], '60.00'));
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const orderId = placed.body.order.id as string;
    await pay(server, orderId);
    const staff = await staffClient(server);
    const batch = await staff.post('/api/print-batches', { schoolId: shop.schoolId });
    expect(batch.status, JSON.stringify(batch.body)).toBe(201);
    const zip = await readZip((await staff.get(`/api/print-batches/${batch.body.id}/files.zip`)).body as Buffer);
    const sheet = parseCsv(zip.find((entry) => entry.name === 'order-sheet.csv')!.data.toString('utf8').slice(1));
    const rows = sheet.slice(1).filter((row) => row[0] === orderId);
    expect(rows.map((row) => [row[4], row[5], row[8]])).toEqual([
      ['Glossy Print (Two Poses)', '1', 'IMG_0423.JPG'],
      ['Glossy Print (Two Poses)', '1', 'IMG_0424.JPG'],
    ]);
    for (const row of rows) expect(zip.some((entry) => entry.name === row[6])).toBe(true);
  });

  it('refuses too many different photos and a count that fits no way of filling it, with nothing stored', async () => {
    const [a, b, c] = photos;
    const count = async () => Number((await server.runtime.knex('orders').count({ n: '*' }).first())?.n);
    const before = await count();
    const poses = await parent.post('/api/orders', body([line(twoPoses, [a, b, c])], '60.00'));
    expect(poses.status).toBe(400);
    expect(poses.body).toMatchObject({ code: 'PACKAGE_POSES', message: PACKAGE_MSG.tooManyPoses(2) });
    const wrong = await parent.post('/api/orders', body([line(pair, [a, b, c, a])], '60.00'));
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'PACKAGE_PHOTOS', message: PACKAGE_MSG.photosCount });
    expect(await count()).toBe(before);
  });
});

describeApi('a package\'s poses limit in the editor\'s words', () => {
  let server: TestServer;

  beforeAll(async () => {
    ({ server } = await startShop());
  });
  afterAll(async () => server.close());

  it('allows as many different photos as the contents hold pieces, and says so with the form\'s label', async () => {
    const staff = await staffClient(server);
    const list = (maxPoses: number) => ({
      name: `Poses ${maxPoses}`,
      products: [
        { name: '13x18 Print', price: '30', kind: 'print' },
        { name: 'Digital Copy', price: '15', kind: 'digital' },
      ],
      packages: [{ name: 'Pair', price: '60', maxPoses, items: [{ productName: '13x18 Print', quantity: 2 }, { productName: 'Digital Copy', quantity: 1 }] }],
    });
    // Two content rows, three pieces: three different photos may fill it.
    const three = await staff.post('/api/price-lists', list(3));
    expect(three.status, JSON.stringify(three.body)).toBe(201);
    expect(three.body.packages[0].maxPoses).toBe(3);
    const four = await staff.post('/api/price-lists', list(4));
    expect(four.status).toBe(400);
    expect(four.body.errors).toEqual({ 'packages.0.maxPoses': PACKAGE_MSG.maxPosesAboveItems(3) });
    expect(four.body.message).toMatch(new RegExp(`^${PACKAGE_EDITOR_MSG.maxPoses} can be at most 3`));
    const zero = await staff.post('/api/price-lists', list(0));
    expect(zero.status).toBe(400);
    expect(zero.body.message).toMatch(new RegExp(`^${PACKAGE_EDITOR_MSG.maxPoses} must be`));
    expect((await staff.get('/api/price-lists')).body.map((saved: { name: string }) => saved.name)).not.toContain('Poses 4');
  });
});
