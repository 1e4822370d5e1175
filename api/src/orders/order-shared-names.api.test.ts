import { afterAll, beforeAll, expect, it } from 'vitest';
import { SAME_NAME_MSG } from '../../contract/same-names';
import type { Order } from '../../contract/orders';
import type { Student } from '../../contract/students';
import { describeApi, staffClient, type Client, type TestServer } from '../../test/harness';
import { orderBody, startShop, type Shop } from '../../test/shop';
import { assignPhotos } from '../students/students.test-helpers';

/**
 * Order management names a line's child with the student number when another child of the class
 * has the same name (docs/access.md, "Two children with the same name"), so the print goes to the
 * right family.
 */
describeApi('orders: two children of one name in order management', () => {
  let server: TestServer;
  let shop: Shop;
  let parent: Client;
  let staff: Client;

  beforeAll(async () => {
    ({ server, shop, parent } = await startShop());
    staff = await staffClient(server, 'admin');
  });
  afterAll(() => server?.close());

  it('shows "Neo Kgosi (31)" to staff on the line of the second Neo, in the list and in the order, and a name no one shares as it is', async () => {
    const added = await staff.post(`/api/albums/${shop.openAlbumId}/students`, {
      students: [
        { name: 'Neo Kgosi', number: '12' },
        { name: 'Neo Kgosi', number: '31' },
        { name: 'Kabo Dube', number: '7' },
      ],
    });
    expect(added.status).toBe(201);
    const students = added.body.students as Student[];
    const second = students.find((student) => student.number === '31')!;
    const kabo = students.find((student) => student.name === 'Kabo Dube')!;
    await assignPhotos(staff, [shop.photoIds[0]!], second.id);
    await assignPhotos(staff, [shop.photoIds[1]!], kabo.id);
    const placed = await parent.post(
      '/api/orders',
      orderBody(shop, [
        { photoId: shop.photoIds[0]!, albumId: shop.openAlbumId, product: shop.print, quantity: 1 },
        { photoId: shop.photoIds[1]!, albumId: shop.openAlbumId, product: shop.print, quantity: 1 },
      ]),
    );
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const id = placed.body.order.id as string;

    const one = await staff.get<Order>(`/api/orders/${id}`);
    expect(one.body.items.map((item) => item.studentName)).toEqual([SAME_NAME_MSG.withNumber('Neo Kgosi', '31'), 'Kabo Dube']);
    const list = await staff.get<Order[]>(`/api/orders?school=${shop.schoolId}`);
    const listed = (Array.isArray(list.body) ? list.body : (list.body as unknown as { orders: Order[] }).orders).find((order) => order.id === id)!;
    expect(listed.items.map((item) => item.studentName)).toEqual([SAME_NAME_MSG.withNumber('Neo Kgosi', '31'), 'Kabo Dube']);
  });
});
