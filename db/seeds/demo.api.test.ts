import fs from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, describeApi, startTestServer, type TestServer } from '../../api/test/harness';
import { DEMO, seedDemo } from './demo';

describeApi('demo seed', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ SEED_DEMO: 'false' });
  });
  afterAll(async () => server.close());

  it('SEED_DEMO=false leaves the database empty', async () => {
    const { knex } = server.runtime;
    for (const table of ['staff', 'schools', 'albums', 'photos', 'price_lists', 'orders', 'customers']) {
      expect(await knex(table).count({ n: '*' }).first(), table).toMatchObject({ n: 0 });
    }
  });

  it('creates the demo school, classes, generated photos, a price list and a demo admin, once', async () => {
    const result = await seedDemo(server.runtime);
    expect(result).toEqual({ schools: 2, classes: 5, photos: 48 });
    expect(await seedDemo(server.runtime)).toBeNull();

    const anon = new Client(server.url);
    const login = await anon.post('/api/auth/login', { email: DEMO.admin.email, password: DEMO.admin.password });
    expect(login.status).toBe(200);
    expect(login.body.user.role).toBe('admin');

    const school = await anon.get(`/api/schools/${DEMO.school.slug}`);
    expect(school.body).toMatchObject({ name: 'Demo Primary School', unlocked: false });
    expect((await anon.post(`/api/schools/${DEMO.school.slug}/verify`, { password: DEMO.school.password })).status).toBe(200);
    const albums = await anon.get(`/api/schools/${school.body.id}/albums`);
    expect(albums.body.map((a: { name: string }) => a.name)).toEqual(['choir', 'Class 1A', 'Class 2B', 'Class 10C']);
    expect(albums.body.find((a: { name: string }) => a.name === 'Class 10C').hasPassword).toBe(true);
    expect(albums.body.reduce((sum: number, a: { photoCount: number }) => sum + a.photoCount, 0)).toBeGreaterThanOrEqual(40);

    const prices = await anon.get(`/api/schools/${school.body.id}/price-lists`);
    expect(prices.body[0].items.length).toBeGreaterThanOrEqual(4);
    const example = prices.body[0].items[0].exampleImage as string;
    const image = await anon.get(example);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    // A package with its worth against single prints, and the family discount.
    const names = new Map((prices.body[0].items as { id: number; productType: string }[]).map((item) => [item.id, item.productType]));
    const family = (prices.body[0].packages as { name: string; price: string; items: { productId: number; quantity: number }[]; maxPoses: number | null; itemsValue: string; savings: string }[]).find(
      (pkg) => pkg.name === 'Family Pack',
    );
    expect(family).toMatchObject({ price: '95.00', maxPoses: 2, itemsValue: '105.00', savings: '10.00' });
    expect(family?.items.map((item) => [names.get(item.productId), item.quantity])).toEqual([
      ['15x20 Print', 1],
      ['10x15 Print', 2],
      ['Digital Copy', 1],
    ]);
    expect(prices.body[0].siblingDiscount).toEqual({ percent: 10, maxChildren: 3 });

    const photo = await server.runtime.knex('photos').first();
    expect(photo.original_name).toMatch(/^IMG_\d{4}\.JPG$/);
    const files = await fs.readdir(`${server.storageDir}/originals`, { recursive: true });
    expect(files.filter((f) => String(f).endsWith('.jpg')).length).toBe(48);

    const closed = await anon.get(`/api/schools/${DEMO.closedSchool.slug}`);
    expect(closed.body.closingDate < new Date().toISOString().slice(0, 10)).toBe(true);
  }, 120_000); // 48 generated photos, each decoded and rendered three times: minutes on a loaded 2-core runner
});
