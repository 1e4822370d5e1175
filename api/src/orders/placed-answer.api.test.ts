import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Order } from '../../contract/orders';
import type { Student } from '../../contract/students';
import { describeApi, staffClient, type Client, type TestServer } from '../../test/harness';
import { orderBody, startShop, type Shop } from '../../test/shop';
import { assignPhotos } from '../students/students.test-helpers';

/**
 * The answer to placing an order is built from what the order's transaction wrote, not read back
 * (docs/performance.md, "Checkout tails on a warm server"): it must be the very order the database
 * holds, so it is the same as the order read afterwards, to the family that placed it and to staff.
 */
describeApi('orders: the answer to placing an order is the order as stored', () => {
  let server: TestServer;
  let shop: Shop;
  let parent: Client;
  let staff: Client;

  beforeAll(async () => {
    ({ server, shop, parent } = await startShop());
    staff = await staffClient(server, 'admin');
    // Two children of one name (staff see the number), a child whose name no one shares, and a group photo.
    const added = await staff.post(`/api/albums/${shop.openAlbumId}/students`, {
      students: [
        { name: 'Neo Kgosi', number: '12' },
        { name: 'Neo Kgosi', number: '31' },
      ],
    });
    expect(added.status).toBe(201);
    const second = (added.body.students as Student[]).find((student) => student.number === '31')!;
    await assignPhotos(staff, [shop.photoIds[0]!], second.id);
  });
  afterAll(() => server?.close());

  const lines = () => [
    { photoId: shop.photoIds[0]!, albumId: shop.openAlbumId, product: shop.print, quantity: 2 },
    { photoId: shop.photoIds[1]!, albumId: shop.openAlbumId, product: shop.digital, quantity: 1 },
    { photoId: shop.photoIds[0]!, albumId: shop.openAlbumId, product: shop.digital, quantity: 1 },
  ];

  it('answers the family the order it reads afterwards, notes and phone as typed or left out', async () => {
    for (const overrides of [{}, { notes: 'Please frame the first one', customerPhone: '' }, { notes: undefined, customerPhone: undefined }]) {
      const placed = await parent.post('/api/orders', orderBody(shop, lines(), overrides));
      expect(placed.status, JSON.stringify(placed.body)).toBe(201);
      const order = placed.body.order as Order;
      expect(order.items).toHaveLength(3);
      const read = await parent.get<Order>(`/api/orders/${order.id}`);
      expect(read.status).toBe(200);
      expect(order).toEqual(read.body);
    }
  });

  it('answers staff who place an order for a family the order as staff read it, the shared name with its number', async () => {
    const placed = await staff.post('/api/orders', orderBody(shop, lines()));
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const order = placed.body.order as Order;
    const read = await staff.get<Order>(`/api/orders/${order.id}`);
    expect(order).toEqual(read.body);
    expect(order.items[0]?.studentName).toContain('31');
  });
});
