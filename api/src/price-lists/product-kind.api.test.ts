import { afterAll, beforeAll, expect, it } from 'vitest';
import { priceListSchema } from '../../contract/price-lists';
import { describeApi, staffClient, startTestServer, type Client, type TestServer } from '../../test/harness';
import { createShop, orderBody, parentFor, type Shop } from '../../test/shop';
import { readZip } from '../../test/zip';
import { paidOrder } from '../print-batches/print-batches.test-helpers';

/** The price list editor's multipart form, as the PWA sends it. */
function editorForm(name: string, rows: Record<string, string>[]) {
  const form = new FormData();
  form.append('name', name);
  rows.forEach((row, i) => {
    for (const [key, value] of Object.entries(row)) form.append(`products[${i}][${key}]`, value);
  });
  return form;
}

/**
 * Print or digital is the product's own kind, not a word in its name (issue 29): a "Soft copy (JPEG
 * by e-mail)" is a download, never sent to the lab, and still sold after the closing date; a
 * "Digital-look Print" is a print.
 */
describeApi('print and digital products', () => {
  let server: TestServer;
  let staff: Client;
  let shop: Shop;
  const products: Record<'soft' | 'glossy' | 'look', { id: string; name: string; priceThebe: number }> = {} as never;

  beforeAll(async () => {
    server = await startTestServer();
    staff = await staffClient(server, 'photographer');
    shop = await createShop(server, { withPriceList: false });
  });
  afterAll(async () => server.close());

  it('the editor sets each product\'s kind and a print\'s size; anything else is a 400 naming the row', async () => {
    const bad = await staff.post('/api/price-lists', editorForm('Bad', [{ name: 'Mug', price: '50', kind: 'mug' }]));
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ 'products.0.kind': 'Kind of Mug must be print or digital' });

    const res = await staff.post(
      '/api/price-lists',
      editorForm('Season', [
        { name: 'Soft copy (JPEG by e-mail)', price: '20', kind: 'digital', size: '10x15 cm' },
        { name: 'Glossy Print', price: '30', kind: 'print', size: '10x15 cm' },
        { name: 'Digital-look Print', price: '40', kind: 'print' },
      ]),
    );
    expect(res.status).toBe(201);
    const list = priceListSchema.strict().parse(res.body);
    expect(list.items.map((item) => [item.productType, item.kind, item.size])).toEqual([
      ['Soft copy (JPEG by e-mail)', 'digital', null],
      ['Glossy Print', 'print', '10x15 cm'],
      ['Digital-look Print', 'print', null],
    ]);
    const [soft, glossy, look] = list.items;
    products.soft = { id: String(soft!.id), name: soft!.productType, priceThebe: 2000 };
    products.glossy = { id: String(glossy!.id), name: glossy!.productType, priceThebe: 3000 };
    products.look = { id: String(look!.id), name: look!.productType, priceThebe: 4000 };
    expect((await staff.patch(`/api/schools/${shop.schoolId}`, { priceListId: list.id })).status).toBe(200);
    // Families see the kind too (the gallery offers only digital products once ordering closes).
    const offered = await (await parentFor(server, shop)).get(`/api/schools/${shop.schoolId}/price-lists`);
    expect(offered.status).toBe(200);
    expect((offered.body as { items: { productType: string; kind: string }[] }[])[0]!.items.map((item) => item.kind)).toEqual(['digital', 'print', 'print']);
  });

  it('sends the prints to the lab and delivers the soft copy as a download', async () => {
    const parent = await parentFor(server, shop);
    const [photoA, photoB] = shop.photoIds as [number, number];
    const orderId = await paidOrder(server, parent, shop, [
      { photoId: photoA, albumId: shop.openAlbumId, product: products.soft, quantity: 1 },
      { photoId: photoA, albumId: shop.openAlbumId, product: products.glossy, quantity: 1 },
      { photoId: photoB, albumId: shop.openAlbumId, product: products.look, quantity: 2 },
    ]);
    const order = await parent.get(`/api/orders/${orderId}`);
    expect(order.status).toBe(200);
    const items = order.body.items as { productName: string; digital: boolean; downloadUrl: string | null }[];
    expect(items.map((item) => [item.productName, item.digital, item.downloadUrl !== null])).toEqual([
      ['Soft copy (JPEG by e-mail)', true, true],
      ['Glossy Print', false, false],
      ['Digital-look Print', false, false],
    ]);

    const ready = await staff.get('/api/print-batches/ready');
    expect(ready.status).toBe(200);
    expect((ready.body as { schoolId: number; printCount: number }[]).find((school) => school.schoolId === shop.schoolId)).toMatchObject({ orderCount: 1, printCount: 3 });
    const batch = await staff.post('/api/print-batches', { schoolId: shop.schoolId });
    expect(batch.status).toBe(201);
    const detail = await staff.get(`/api/print-batches/${batch.body.id}`);
    expect((detail.body.orders[0].items as { productName: string }[]).map((item) => item.productName)).toEqual(['Glossy Print', 'Digital-look Print']);
    const zip = await readZip((await staff.get(`/api/print-batches/${batch.body.id}/files.zip`)).body as Buffer);
    expect(zip.map((entry) => entry.name.split('/')[0]).filter((folder) => !folder!.endsWith('.csv')).sort()).toEqual(['Digital-look Print', 'Glossy Print']);
  });

  it('after the closing date sells the soft copy and refuses the prints', async () => {
    expect((await staff.patch(`/api/schools/${shop.schoolId}`, { closingDate: '2020-01-01' })).status).toBe(200);
    const parent = await parentFor(server, shop);
    const photo = shop.photoIds[0]!;
    const print = await parent.post('/api/orders', orderBody(shop, [{ photoId: photo, albumId: shop.openAlbumId, product: products.look, quantity: 1 }]));
    expect(print.status).toBe(409);
    expect(print.body.code).toBe('PRINTS_CLOSED');
    const soft = await parent.post('/api/orders', orderBody(shop, [{ photoId: photo, albumId: shop.openAlbumId, product: products.soft, quantity: 1 }]));
    expect(soft.status).toBe(201);
  });
});
