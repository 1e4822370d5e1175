import { afterAll, beforeAll, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import { Client, describeApi, staffClient, type TestServer } from '../../test/harness';
import { createShop, orderBody, parentFor, standardLines, startShop, type Shop } from '../../test/shop';
import { MSG, ORDER_MSG } from '../../contract/messages';
import { ORDER_ID_PATTERN } from './order-id';
import { markOrderPaid } from '../../test/fixtures';

describeApi('orders', () => {
  let server: TestServer;
  let shop: Shop;
  let parent: Client;
  beforeAll(async () => ({ server, shop, parent } = await startShop()));
  afterAll(async () => server.close());

  it('validates the checkout fields with the spec texts', async () => {
    const body = orderBody(shop, standardLines(shop));
    const cases: [Record<string, unknown>, string, string][] = [
      [{ customerName: ' ' }, MSG.nameRequired, 'customerName'],
      [{ studentName: '' }, MSG.studentNameRequired, 'studentName'],
      [{ customerEmail: 'not-mail' }, MSG.validEmail, 'customerEmail'],
      [{ items: [] }, 'Your cart is empty', 'items'],
      [{ items: [{ ...body.items[0], quantity: 11 }] }, 'Quantity must be between 1 and 10', 'items.0.quantity'],
      [{ items: [{ ...body.items[0], quantity: 0 }] }, 'Quantity must be between 1 and 10', 'items.0.quantity'],
    ];
    for (const [override, message, field] of cases) {
      const res = await parent.post('/api/orders', { ...body, ...override });
      expect(res.status, message).toBe(400);
      expect(res.body.message).toBe(message);
      expect(res.body.errors).toHaveProperty(field);
    }
    expect(await server.runtime.knex('orders').count({ n: '*' }).first()).toMatchObject({ n: 0 });
  });

  it('needs the school grant, and the class grant for a protected class', async () => {
    const stranger = new Client(server.url);
    const res = await stranger.post('/api/orders', orderBody(shop, standardLines(shop)));
    expect(res.status).toBe(401);
    const protectedLine = [{ photoId: shop.protectedPhotoId, albumId: shop.protectedAlbumId, product: shop.digital, quantity: 1 }];
    const locked = await parent.post('/api/orders', orderBody(shop, protectedLine));
    expect(locked.status).toBe(403);
    const unlocked = await parentFor(server, shop, { protectedClass: true });
    expect((await unlocked.post('/api/orders', orderBody(shop, protectedLine))).status).toBe(201);
  });

  it('prices on the server and refuses tampered prices with 409', async () => {
    const good = orderBody(shop, standardLines(shop));
    const cheaperUnit = { ...good, items: [{ ...good.items[0], unitPrice: '0.01', totalPrice: '0.02' }, good.items[1]], totalAmount: '17.52' };
    const wrongTotal = { ...good, totalAmount: '1.00' };
    const unknownProduct = { ...good, items: [{ ...good.items[0], productType: '999999' }] };
    for (const body of [cheaperUnit, wrongTotal]) {
      const res = await parent.post('/api/orders', body);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(ORDER_MSG.pricesChanged);
    }
    expect((await parent.post('/api/orders', unknownProduct)).status).toBe(409);
    const otherShop = await createShop(server);
    const foreign = orderBody(shop, [{ photoId: otherShop.photoIds[0]!, albumId: otherShop.openAlbumId, product: shop.print, quantity: 1 }]);
    const res = await parent.post('/api/orders', foreign);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(ORDER_MSG.photoNotInSchool);
    const mismatchedAlbum = orderBody(shop, [{ photoId: shop.photoIds[0]!, albumId: shop.protectedAlbumId, product: shop.print, quantity: 1 }]);
    expect((await parent.post('/api/orders', mismatchedAlbum)).status).toBe(400);
  });

  it('after the closing date sells only digital products', async () => {
    const closed = await createShop(server, { closed: true, withPriceList: false });
    const closedParent = await parentFor(server, closed);
    const print = orderBody(closed, [{ photoId: closed.photoIds[0]!, albumId: closed.openAlbumId, product: closed.print, quantity: 1 }]);
    const refused = await closedParent.post('/api/orders', print);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('PRINTS_CLOSED');
    const digital = orderBody(closed, [{ photoId: closed.photoIds[0]!, albumId: closed.openAlbumId, product: closed.digital, quantity: 1 }]);
    const ok = await closedParent.post('/api/orders', digital);
    expect(ok.status).toBe(201);
    expect(ok.body.order.totalAmount).toBe('15.00');
  });

  it('creates the order with server prices, a customer without a password, and a set-password mail', async () => {
    const body = orderBody(shop, standardLines(shop), { customerEmail: 'New.Parent@Example.test' });
    const res = await parent.post('/api/orders', body);
    expect(res.status).toBe(201);
    expect(res.body.customerCreated).toBe(true);
    const order = res.body.order;
    expect(order.id).toMatch(ORDER_ID_PATTERN);
    expect(order).toMatchObject({
      customerName: 'Mpho Dube',
      customerEmail: 'new.parent@example.test',
      studentName: 'Kagiso Dube',
      totalAmount: '77.50',
      orderStatus: 'pending',
      status: 'pending',
      paymentStatus: 'pending',
      school: { id: shop.schoolId },
      albumName: 'Class 1A',
    });
    expect(order.items[0]).toMatchObject({
      photoId: shop.photoIds[0],
      // The browser that placed it is a family: the frame number, never the camera's file name (docs/access.md, "Reading an order").
      photoName: null,
      photoOriginalName: null,
      photoOriginalNumber: '0423',
      photoNumber: '0423',
      productType: shop.print.id,
      productName: 'Glossy Print',
      quantity: 2,
      unitPrice: '30.00',
      totalPrice: '60.00',
      digital: false,
      downloadUrl: null,
    });
    expect(order.items[0].photoFilename).toMatch(/^[a-f0-9]+\.jpg$/);
    expect(order.items[1]).toMatchObject({ digital: true, downloadUrl: null });
    const row = await server.runtime.knex('orders').where({ id: order.id }).first();
    expect(Number(row.total_thebe)).toBe(7750);
    const customer = await server.runtime.knex('customers').where({ email: 'new.parent@example.test' }).first();
    expect(customer.password_hash).toBeNull();
    expect(Number(row.customer_id)).toBe(Number(customer.id));
    expect(await server.runtime.knex('password_reset_tokens').where({ customer_id: customer.id }).count({ n: '*' }).first()).toMatchObject({ n: 1 });

    const again = await parent.post('/api/orders', { ...body, customerEmail: 'new.parent@example.test' });
    expect(again.status).toBe(201);
    expect(again.body.customerCreated).toBe(false);
    const second = await server.runtime.knex('orders').where({ id: again.body.order.id }).first();
    expect(Number(second.customer_id)).toBe(Number(customer.id));
  });

  it('an Idempotency-Key makes a repeated POST return the first order', async () => {
    const body = orderBody(shop, standardLines(shop));
    const key = 'checkout-0f1e2d3c4b5a';
    const first = await parent.post('/api/orders', body, { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    const replay = await parent.post('/api/orders', body, { 'Idempotency-Key': key });
    expect(replay.status).toBe(200);
    expect(replay.body.order.id).toBe(first.body.order.id);
    const burstKey = 'checkout-burst-123456';
    const burst = await Promise.all(Array.from({ length: 5 }, () => parent.post('/api/orders', body, { 'Idempotency-Key': burstKey })));
    expect(new Set(burst.map((r) => r.body.order.id)).size).toBe(1);
    expect(await server.runtime.knex('orders').where({ idempotency_key: burstKey }).count({ n: '*' }).first()).toMatchObject({ n: 1 });
    expect((await parent.post('/api/orders', body, { 'Idempotency-Key': 'bad key!' })).status).toBe(400);
  });

  it('GET /api/orders/{id} needs no login; unknown ids are 404', async () => {
    const created = await parent.post('/api/orders', orderBody(shop, standardLines(shop)));
    const res = await new Client(server.url).get(`/api/orders/${created.body.order.id}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(created.body.order.id);
    expect((await new Client(server.url).get('/api/orders/ABCDEFGHJKMNP')).status).toBe(404);
    expect((await new Client(server.url).get('/api/orders/1')).status).toBe(404);
  });

  it('staff list and filter orders and change their status; others may not', async () => {
    const admin = await staffClient(server, 'photographer');
    const created = await parent.post('/api/orders', orderBody(shop, standardLines(shop)));
    const id = created.body.order.id;
    expect((await new Client(server.url).get('/api/orders')).status).toBe(401);
    const customerRow = await server.runtime.knex('customers').first('id');
    const customer = new Client(server.url, server.runtime.tokens.signCustomer({ id: Number(customerRow.id) }));
    expect((await customer.get('/api/orders')).status).toBe(403);
    expect((await customer.put(`/api/orders/${id}`, { orderStatus: 'paid' })).status).toBe(403);

    const all = await admin.get(`/api/orders?school=${shop.schoolId}`);
    expect(all.status).toBe(200);
    expect(all.body.every((o: { school: { id: number } }) => o.school.id === shop.schoolId)).toBe(true);
    expect(all.body.find((o: { id: string }) => o.id === id).items[0]).toHaveProperty('photoOriginalNumber', '0423');

    const bad = await admin.put(`/api/orders/${id}`, { orderStatus: 'shipped' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('orderStatus');
    const moved = await admin.put(`/api/orders/${id}`, { orderStatus: 'at_printers' });
    expect(moved.status).toBe(200);
    expect(moved.body.orderStatus).toBe('at_printers');
    const filtered = await admin.get('/api/orders?status=at_printers');
    expect(filtered.body.map((o: { id: string }) => o.id)).toEqual([id]);
    expect((await admin.get('/api/orders?status=nonsense')).status).toBe(400);
    expect((await admin.put('/api/orders/ABCDEFGHJKMNP', { orderStatus: 'paid' })).status).toBe(404);
  });

  it('customers see only their own orders; staff tokens are refused there', async () => {
    const a = await parent.post('/api/orders', orderBody(shop, standardLines(shop), { customerEmail: 'alpha@example.test' }));
    await parent.post('/api/orders', orderBody(shop, standardLines(shop), { customerEmail: 'beta@example.test' }));
    const alpha = await server.runtime.knex('customers').where({ email: 'alpha@example.test' }).first();
    const alphaClient = new Client(server.url, server.runtime.tokens.signCustomer({ id: Number(alpha.id) }));
    const mine = await alphaClient.get('/api/customer/orders');
    expect(mine.status).toBe(200);
    expect(mine.body.map((o: { id: string }) => o.id)).toEqual([a.body.order.id]);
    expect((await new Client(server.url).get('/api/customer/orders')).status).toBe(401);
    expect((await (await staffClient(server)).get('/api/customer/orders')).status).toBe(403);

    // A signed-in customer's order is theirs even with another e-mail typed in.
    const signedIn = await parentFor(server, shop);
    signedIn.token = alphaClient.token;
    const placed = await signedIn.post('/api/orders', orderBody(shop, standardLines(shop), { customerEmail: 'typo@example.test' }));
    expect(placed.status).toBe(201);
    expect(placed.body.customerCreated).toBe(false);
    const row = await server.runtime.knex('orders').where({ id: placed.body.order.id }).first();
    expect(Number(row.customer_id)).toBe(Number(alpha.id));
    expect(await server.runtime.knex('customers').where({ email: 'typo@example.test' }).first()).toBeUndefined();
  });

  it('download links are refused for unpaid orders and tampered or expired links', async () => {
    const created = await parent.post('/api/orders', orderBody(shop, standardLines(shop)));
    const order = created.body.order;
    const digitalItem = order.items.find((i: { digital: boolean }) => i.digital);
    const sign = (payload: object, expiresIn: number) =>
      jwt.sign(payload, server.config.jwtSecret, { algorithm: 'HS256', audience: 'download', expiresIn });
    const anon = new Client(server.url);
    const unpaid = await anon.get(`/api/downloads/${sign({ o: order.id, i: digitalItem.id }, 3600)}`);
    expect(unpaid.status).toBe(403);
    expect(unpaid.body.message).toBe(ORDER_MSG.downloadNotReady);
    await markOrderPaid(server, order.id);
    // The browser that placed the order reads its links; the link itself needs nothing more.
    const paid = await parent.get(`/api/orders/${order.id}`);
    const url = new URL(paid.body.items.find((i: { digital: boolean }) => i.digital).downloadUrl);
    const ok = await anon.get(url.pathname);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/jpeg');
    // The family's name for the photo, never the camera's file name (IMG_0424.JPG).
    expect(ok.headers.get('content-disposition')).toContain(' - Photo 424.jpg"');
    expect(ok.headers.get('content-disposition')).not.toContain('IMG_');
    const stored = await server.runtime.knex('photos').where({ id: digitalItem.photoId }).first();
    expect((ok.body as Buffer).length).toBe(Number(stored.file_size));

    const token = url.pathname.split('/').pop()!;
    const tampered = `${token.slice(0, -3)}${token.slice(-3) === 'AAA' ? 'BBB' : 'AAA'}`;
    expect((await anon.get(`/api/downloads/${tampered}`)).status).toBe(403);
    expect((await anon.get(`/api/downloads/${sign({ o: order.id, i: digitalItem.id, iat: 1 }, -10)}`)).status).toBe(403);
    const printItem = order.items.find((i: { digital: boolean }) => !i.digital);
    expect((await anon.get(`/api/downloads/${sign({ o: order.id, i: printItem.id }, 3600)}`)).status).toBe(403);
  });

  it('dashboard revenue counts only completed payments', async () => {
    const admin = await staffClient(server);
    const before = await admin.get('/api/dashboard/stats');
    const created = await parent.post('/api/orders', orderBody(shop, standardLines(shop)));
    const unchanged = await admin.get('/api/dashboard/stats');
    expect(unchanged.body.totalRevenue).toBe(before.body.totalRevenue);
    await markOrderPaid(server, created.body.order.id);
    const after = await admin.get('/api/dashboard/stats');
    const delta = Math.round(Number(after.body.totalRevenue) * 100) - Math.round(Number(before.body.totalRevenue) * 100);
    expect(delta).toBe(7750);
    expect(after.body.activeOrders).toBe(before.body.activeOrders + 1);
  });
});
