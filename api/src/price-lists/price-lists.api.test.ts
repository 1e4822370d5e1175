import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MSG } from '../../contract/messages';
import { priceListSchema } from '../../contract/price-lists';
import { describeApi, startWithVisitors, type Client, type TestServer } from '../../test/harness';
import { createSchool } from '../schools/schools.test-helpers';

const pngOf = (background: string) => sharp({ create: { width: 60, height: 40, channels: 3, background } }).png().toBuffer();

interface Item {
  id: number;
  productType: string;
  price: string;
  exampleImage: string;
}

function editorForm(name: string, rows: Record<string, string | Blob>[], description = '') {
  const form = new FormData();
  form.append('name', name);
  form.append('description', description);
  rows.forEach((row, i) => {
    for (const [key, value] of Object.entries(row)) {
      if (value instanceof Blob) form.append(`products[${i}][${key}]`, value, 'example.png');
      else form.append(`products[${i}][${key}]`, value);
    }
  });
  return form;
}

describeApi('price lists', () => {
  let server: TestServer;
  let anon: Client;
  let staff: Client;
  let customer: Client;
  beforeAll(async () => ({ server, staff, anon, customer } = await startWithVisitors('photographer')));
  afterAll(() => server?.close());

  /** Stored example images on disk (the media service keeps them under STORAGE_DIR/examples). */
  const exampleFiles = async () => (await fs.readdir(path.join(server.storageDir, 'examples')).catch(() => [])).length;

  const body = { name: 'Standard', description: 'Prints', products: [{ name: '10x15 Print', description: 'Glossy', price: '25' }] };

  it('staff calls: 401 without a token, 403 for a customer token', async () => {
    for (const client of [anon, customer]) {
      const expected = client === anon ? 401 : 403;
      expect((await client.get('/api/price-lists')).status).toBe(expected);
      expect((await client.post('/api/price-lists', body)).status).toBe(expected);
      expect((await client.put('/api/price-lists/1', body)).status).toBe(expected);
      expect((await client.delete('/api/price-lists/1')).status).toBe(expected);
    }
  });

  it('POST: 400 with the spec texts; incomplete rows are dropped', async () => {
    const noName = await staff.post('/api/price-lists', { ...body, name: ' ' });
    expect(noName.status).toBe(400);
    expect(noName.body).toMatchObject({ message: 'Please enter a price list name', errors: { name: 'Please enter a price list name' } });

    const noRows = await staff.post('/api/price-lists', { name: 'Empty', products: [{ name: 'No price', price: '' }, { name: '', price: '10' }] });
    expect(noRows.status).toBe(400);
    expect(noRows.body.message).toBe('Please add at least one product with name and price');

    const multipart = await staff.post('/api/price-lists', editorForm('', [{ name: 'Print', price: '25' }]));
    expect(multipart.status).toBe(400);
    expect(multipart.body.message).toBe('Please enter a price list name');

    const badPrice = await staff.post('/api/price-lists', { name: 'Bad', products: [{ name: 'Print', price: '12.345' }] });
    expect(badPrice.status).toBe(400);
    expect(badPrice.body.errors).toHaveProperty(['products.0.price']);

    const malformed = await staff.post('/api/price-lists', '{"name":', { 'Content-Type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe(MSG.malformedJson);
  });

  it('POST (JSON): money is integer thebe in the database and "25.00" in the API', async () => {
    const res = await staff.post('/api/price-lists', {
      name: 'Standard',
      products: [
        { name: '10x15 Print', description: 'Glossy', price: '25' },
        { name: 'Half', price: '' },
        { name: 'Digital Copy', price: 15.5 },
      ],
    });
    expect(res.status).toBe(201);
    expect(priceListSchema.strict().parse(res.body)).toMatchObject({
      name: 'Standard',
      description: '',
      items: [
        { productType: '10x15 Print', description: 'Glossy', price: '25.00', exampleImage: null },
        { productType: 'Digital Copy', description: '', price: '15.50', exampleImage: null },
      ],
    });
    const rows = await server.runtime.knex('price_list_items').where({ price_list_id: res.body.id }).orderBy('position');
    expect(rows.map((r: { price_thebe: number; position: number }) => [Number(r.price_thebe), Number(r.position)])).toEqual([
      [2500, 0],
      [1550, 1],
    ]);
  });

  it('POST (multipart): stores an example image and serves it from /api/example-images/<file>', async () => {
    const png = await pngOf('#c33');
    const form = editorForm(
      'With images',
      [
        { name: 'Small Frame', description: 'Wood', price: '35', exampleImage: new Blob([png], { type: 'image/png' }) },
        { name: '', price: '', exampleImage: new Blob([png], { type: 'image/png' }) },
        { name: 'Digital Copy', price: '15.00' },
      ],
      'Frames and prints',
    );
    const filesBefore = await exampleFiles();
    const res = await staff.post('/api/price-lists', form);
    expect(res.status).toBe(201);
    // The second row was dropped (no name, no price), so its file was not stored.
    expect(await exampleFiles()).toBe(filesBefore + 1);
    expect(res.body.description).toBe('Frames and prints');
    expect(res.body.items).toHaveLength(2);
    const [frame, digital] = res.body.items;
    expect(frame).toMatchObject({ productType: 'Small Frame', description: 'Wood', price: '35.00' });
    expect(frame.exampleImage).toMatch(/^\/api\/example-images\/[^/]+$/);
    expect(digital.exampleImage).toBeNull();

    const image = await anon.get(frame.exampleImage);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\//);
    expect((await sharp(image.body as Buffer).metadata()).width).toBe(60);

    const publicDetail = await anon.get(`/api/price-lists/${res.body.id}`);
    expect(publicDetail.status).toBe(200);
    expect(publicDetail.body).toEqual(res.body);
  });

  it('PUT (multipart): keeps a listed image, replaces another, removes the ones no longer used', async () => {
    const [red, blue] = await Promise.all([pngOf('#c33'), pngOf('#33c')]);
    const created = await staff.post(
      '/api/price-lists',
      editorForm('Editable', [
        { name: 'A', price: '10', exampleImage: new Blob([red], { type: 'image/png' }) },
        { name: 'B', price: '20', exampleImage: new Blob([red], { type: 'image/png' }) },
        { name: 'C', price: '30', exampleImage: new Blob([red], { type: 'image/png' }) },
      ]),
    );
    expect(created.status).toBe(201);
    const [a, b, c] = created.body.items as [Item, Item, Item];
    const other = await staff.post('/api/price-lists', editorForm('Other', [{ name: 'X', price: '1', exampleImage: new Blob([blue], { type: 'image/png' }) }]));
    const foreign = other.body.items[0].exampleImage as string;

    const res = await staff.put(
      `/api/price-lists/${created.body.id}`,
      editorForm('Edited', [
        { name: 'A', price: '11', existingImagePath: a.exampleImage },
        { name: 'B', price: '22', existingImagePath: 'whatever', exampleImage: new Blob([blue], { type: 'image/png' }) },
        { name: 'D', price: '40', existingImagePath: foreign.slice(foreign.lastIndexOf('/') + 1) },
      ]),
    );
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Edited');
    const items = res.body.items as [Item, Item, Item];
    expect(items.map((i) => [i.productType, i.price])).toEqual([
      ['A', '11.00'],
      ['B', '22.00'],
      ['D', '40.00'],
    ]);
    expect(items[0]).toMatchObject({ id: a.id, exampleImage: a.exampleImage });
    expect(items[1].id).toBe(b.id);
    expect(items[1].exampleImage).not.toBe(b.exampleImage);
    expect(items[2].exampleImage).toBeNull();

    expect((await anon.get(items[1].exampleImage as string)).status).toBe(200);
    expect((await anon.get(b.exampleImage)).status).toBe(404);
    expect((await anon.get(c.exampleImage)).status).toBe(404);
    expect((await anon.get(foreign)).status).toBe(200);
  });

  it('PUT: 404 for an unknown list; a failed save leaves no stored image behind', async () => {
    expect((await staff.put('/api/price-lists/999999', body)).status).toBe(404);
    const before = await staff.get('/api/price-lists');
    const filesBefore = await exampleFiles();
    const broken = await staff.post(
      '/api/price-lists',
      editorForm('Broken', [
        { name: 'Good', price: '10', exampleImage: new Blob([await pngOf('#3c3')], { type: 'image/png' }) },
        { name: 'Bad', price: '10', exampleImage: new Blob([Buffer.from('<html>not an image</html>')], { type: 'image/png' }) },
      ]),
    );
    expect(broken.status).toBeGreaterThanOrEqual(400);
    expect(broken.status).toBeLessThan(500);
    expect((await staff.get('/api/price-lists')).body).toHaveLength(before.body.length);
    expect(await exampleFiles()).toBe(filesBefore);
  });

  it('GET /api/price-lists lists with items; GET /api/schools/:id/price-lists gives 0 or 1 list', async () => {
    const list = await staff.post('/api/price-lists', { name: 'School list', products: [{ name: 'Print', price: '25' }] });
    const withList = await createSchool(staff, { priceListId: list.body.id });
    const withoutList = await createSchool(staff);

    const all = await staff.get('/api/price-lists');
    expect(all.status).toBe(200);
    for (const entry of all.body) priceListSchema.strict().parse(entry);
    expect(all.body.find((l: { id: number }) => l.id === list.body.id).items).toHaveLength(1);

    const forSchool = await anon.get(`/api/schools/${withList.id}/price-lists`);
    expect(forSchool.status).toBe(200);
    expect(forSchool.body).toEqual([list.body]);
    expect((await anon.get(`/api/schools/${withoutList.id}/price-lists`)).body).toEqual([]);
    expect((await anon.get('/api/schools/999999/price-lists')).status).toBe(404);
    expect((await anon.get('/api/price-lists/999999')).status).toBe(404);
  });

  it('DELETE: removes the list and its images; schools fall back to no price list', async () => {
    const created = await staff.post(
      '/api/price-lists',
      editorForm('Doomed', [{ name: 'Print', price: '25', exampleImage: new Blob([await pngOf('#999')], { type: 'image/png' }) }]),
    );
    const school = await createSchool(staff, { priceListId: created.body.id });
    expect((await staff.delete('/api/price-lists/999999')).status).toBe(404);
    const res = await staff.delete(`/api/price-lists/${created.body.id}`);
    expect(res.status).toBe(200);
    expect((await anon.get(`/api/price-lists/${created.body.id}`)).status).toBe(404);
    expect((await anon.get(created.body.items[0].exampleImage)).status).toBe(404);
    expect(await server.runtime.knex('price_list_items').where({ price_list_id: created.body.id })).toEqual([]);
    const after = await staff.get(`/api/schools/by-id/${school.id}`);
    expect(after.body).toMatchObject({ priceListId: null, priceListName: null });
  });
});
