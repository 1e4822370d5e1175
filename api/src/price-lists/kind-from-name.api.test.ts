import { afterAll, beforeAll, expect, it } from 'vitest';
import { priceListSchema, type PriceList } from '../../contract/price-lists';
import { thebeToDecimal } from '../../contract/money';
import { describeApi, staffClient, startTestServer, type Client, type TestServer } from '../../test/harness';
import { createShop, orderBody, parentFor, type Shop } from '../../test/shop';
import { readZip } from '../../test/zip';
import { parseCsv } from '../../../pwa/test/parse-csv';
import { pay } from '../print-batches/print-batches.test-helpers';

const kinds = (list: Pick<PriceList, 'items'>) => list.items.map((item) => [item.productType, item.kind, item.size]);

/**
 * A product sent without a kind (the specification's price list API has none) is never guessed a
 * print (issue 40, item 7; docs/money-and-pricing.md, "Print and digital products"): a new one
 * takes its kind from its name ("digital", "download"), one that keeps its name keeps its kind,
 * every answer shows it, and a package's digital contents never reach the lab.
 */
describeApi('a product sent without a kind', () => {
  let server: TestServer;
  let staff: Client;
  let shop: Shop;
  let listId: number;

  beforeAll(async () => {
    server = await startTestServer();
    staff = await staffClient(server, 'photographer');
    shop = await createShop(server, { withPriceList: false });
  });
  afterAll(async () => server.close());

  it('takes its kind from its name when created, as JSON and as the editor\'s form', async () => {
    const res = await staff.post('/api/price-lists', {
      name: 'Season 2027',
      products: [
        { name: 'Digital Copy', price: '15' },
        { name: 'Photo DOWNLOAD (HD)', price: '20', size: '10x15 cm' },
        { name: '13x18 Print', price: '35' },
        { name: 'Soft copy (JPEG by e-mail)', price: '20', kind: 'digital' },
      ],
      packages: [{ name: 'Family Pack', price: '70', items: [{ productName: '13x18 Print', quantity: 2 }, { productName: 'Digital Copy', quantity: 1 }] }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const list = priceListSchema.strict().parse(res.body);
    listId = list.id;
    expect(kinds(list)).toEqual([
      ['Digital Copy', 'digital', null],
      ['Photo DOWNLOAD (HD)', 'digital', null],
      ['13x18 Print', 'print', null],
      ['Soft copy (JPEG by e-mail)', 'digital', null],
    ]);

    const form = new FormData();
    form.append('name', 'Form list');
    form.append('products[0][name]', 'School download');
    form.append('products[0][price]', '10');
    form.append('products[1][name]', 'Canvas');
    form.append('products[1][price]', '80');
    form.append('products[1][size]', '30x40 cm');
    const multipart = await staff.post('/api/price-lists', form);
    expect(multipart.status).toBe(201);
    expect(kinds(priceListSchema.parse(multipart.body))).toEqual([
      ['School download', 'digital', null],
      ['Canvas', 'print', '30x40 cm'],
    ]);
  });

  it('keeps the kind of a product that keeps its name, and every answer shows the kind', async () => {
    const res = await staff.put(`/api/price-lists/${listId}`, {
      name: 'Season 2027',
      products: [
        { name: 'Digital Copy', price: '15' },
        { name: 'Photo DOWNLOAD (HD)', price: '20' },
        { name: '13x18 Print', price: '35' },
        // Set to digital before; the tool that sends no kind does not turn it into a print.
        { name: 'Soft copy (JPEG by e-mail)', price: '25' },
        { name: 'Extra digital file', price: '12' },
      ],
      packages: [{ name: 'Family Pack', price: '70', items: [{ productName: '13x18 Print', quantity: 2 }, { productName: 'Digital Copy', quantity: 1 }] }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const expected = [
      ['Digital Copy', 'digital', null],
      ['Photo DOWNLOAD (HD)', 'digital', null],
      ['13x18 Print', 'print', null],
      ['Soft copy (JPEG by e-mail)', 'digital', null],
      ['Extra digital file', 'digital', null],
    ];
    expect(kinds(priceListSchema.parse(res.body))).toEqual(expected);
    expect(kinds(priceListSchema.parse((await staff.get(`/api/price-lists/${listId}`)).body))).toEqual(expected);
    const all = (await staff.get('/api/price-lists')).body as PriceList[];
    expect(kinds(all.find((list) => list.id === listId)!)).toEqual(expected);
    expect((await staff.patch(`/api/schools/${shop.schoolId}`, { priceListId: listId })).status).toBe(200);
    const parent = await parentFor(server, shop);
    const offered = (await parent.get(`/api/schools/${shop.schoolId}/price-lists`)).body as PriceList[];
    expect(kinds(offered[0]!)).toEqual(expected);
  });

  it('refuses a kind it does not know with a 400 naming the row, and writes nothing', async () => {
    const before = (await staff.get(`/api/price-lists/${listId}`)).body as PriceList;
    const res = await staff.put(`/api/price-lists/${listId}`, {
      name: 'Renamed',
      products: [
        { name: 'Digital Copy', price: '99' },
        { name: 'Mug', price: '50', kind: 'download' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ 'products.1.kind': 'Kind of Mug must be print or digital' });
    expect((await staff.get(`/api/price-lists/${listId}`)).body).toEqual(before);
  });

  it('sends only the package\'s prints to the lab: its digital copy is in neither the ZIP nor the order sheet', async () => {
    const list = priceListSchema.parse((await staff.get(`/api/price-lists/${listId}`)).body);
    const pkg = list.packages[0]!;
    const parent = await parentFor(server, shop);
    const line = { packageId: pkg.id, photos: [shop.photoIds[0]], quantity: 1, unitPrice: pkg.price, totalPrice: pkg.price };
    const placed = await parent.post('/api/orders', { ...orderBody(shop, []), items: [line], totalAmount: thebeToDecimal(7000) });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const orderId = placed.body.order.id as string;
    await pay(server, orderId);
    const order = await parent.get(`/api/orders/${orderId}`);
    const items = order.body.items as { productName: string; digital: boolean; downloadUrl: string | null; quantity: number }[];
    expect(items.map((item) => [item.productName, item.quantity, item.digital, item.downloadUrl !== null])).toEqual([
      ['13x18 Print', 2, false, false],
      ['Digital Copy', 1, true, true],
    ]);

    const batch = await staff.post('/api/print-batches', { schoolId: shop.schoolId });
    expect(batch.status, JSON.stringify(batch.body)).toBe(201);
    const zip = await readZip((await staff.get(`/api/print-batches/${batch.body.id}/files.zip`)).body as Buffer);
    const files = zip.map((entry) => entry.name).filter((name) => name.includes('/'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^13x18 Print/);
    expect(zip.some((entry) => entry.name.includes('Digital Copy'))).toBe(false);
    const sheet = parseCsv(zip.find((entry) => entry.name === 'order-sheet.csv')!.data.toString('utf8').slice(1));
    expect(sheet.slice(1).map((row) => [row[0], row[4], row[5]])).toEqual([[orderId, '13x18 Print (Family Pack)', '2']]);
  });
});
