import { afterAll, beforeAll, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import { Client, describeApi, staffClient, type TestServer } from '../../test/harness';
import { orderBody, payThroughSandbox, standardLines, startShop, waitUntil, type Shop } from '../../test/shop';
import { orderSchema, orderSummarySchema, type Order } from '../../contract/orders';
import { itemFamilyPhotoLabel } from '../../contract/photo-names';
import { ORDER_ACCESS_COOKIE } from './order-access';

/** docs/access.md, "Reading an order": the id is printed everywhere, so it opens only statuses and the total. */
describeApi('who reads an order', () => {
  let server: TestServer;
  let shop: Shop;
  let parent: Client;
  beforeAll(async () => ({ server, shop, parent } = await startShop()));
  afterAll(async () => server.close());

  const place = async (client: Client = parent) => {
    const res = await client.post('/api/orders', orderBody(shop, standardLines(shop), { notes: 'Leave at the office', customerPhone: '+267 71 234 567' }));
    expect(res.status).toBe(201);
    return res;
  };
  const customerOf = async (id: string) => Number((await server.runtime.knex('orders').where({ id }).first('customer_id')).customer_id);

  it('with only the id: statuses and the total, never names, contact details, notes, lines or links', async () => {
    const placed = await place();
    const id = placed.body.order.id as string;
    await payThroughSandbox(server, id);
    const stranger = new Client(server.url);
    let res = await stranger.get(`/api/orders/${id}`);
    await waitUntil(async () => (res = await stranger.get(`/api/orders/${id}`)).body.paymentStatus === 'completed');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(orderSummarySchema.strict().parse(res.body)).toEqual({
      id,
      orderStatus: 'paid',
      status: 'paid',
      paymentStatus: 'completed',
      totalAmount: placed.body.order.totalAmount,
      testPayment: true,
      // Nothing is awaited for a paid order (docs/payments.md, "Payments that settle later").
      awaitingPayment: null,
      summary: true,
    });
    const text = JSON.stringify(res.body);
    for (const secret of [placed.body.order.customerEmail, '+26771234567', 'Leave at the office', 'Mpho Dube', 'Kagiso', '/api/downloads/']) expect(text).not.toContain(secret);
    // Lower case is the same order and the same answer; an unknown id is still 404.
    expect((await stranger.get(`/api/orders/${id.toLowerCase()}`)).body.summary).toBe(true);
    expect((await stranger.get('/api/orders/0000000000000')).status).toBe(404);
  });

  it('the browser that placed it reads the whole order, download links included, also after the PayWeb3 return', async () => {
    const placed = await place();
    const id = placed.body.order.id as string;
    const cookie = placed.headers.getSetCookie().find((c) => c.startsWith(`${ORDER_ACCESS_COOKIE}=`)) ?? '';
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/api\/orders/i);
    // The token is no part of the order: not in its id, not in any answer.
    expect(JSON.stringify(placed.body)).not.toContain(cookie.split(';')[0]!.split('=')[1]!);
    await payThroughSandbox(server, id);
    let order: Order | undefined;
    await waitUntil(async () => (order = orderSchema.strict().parse((await parent.get(`/api/orders/${id}`)).body)).paymentStatus === 'completed');
    expect(order).toMatchObject({ id, customerEmail: placed.body.order.customerEmail, customerPhone: '+26771234567', notes: 'Leave at the office' });
    expect(order!.items[1]!.downloadUrl).toMatch(/\/api\/downloads\//);
  });

  it('a forged, tampered or other browser\'s token opens nothing more', async () => {
    const mine = (await place()).body.order.id as string;
    const other = new Client(server.url);
    await other.post(`/api/schools/${shop.slug}/verify`, { password: shop.password });
    await place(other);
    // `other` holds a token for its own order, not for `mine`.
    expect((await other.get(`/api/orders/${mine}`)).body.summary).toBe(true);
    const forged = jwt.sign({ o: [mine] }, 'not-the-server-secret-at-all-0123456789', { algorithm: 'HS256', audience: 'order-access' });
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ o: [mine], aud: 'order-access' })).toString('base64url')}.`;
    for (const token of [forged, unsigned, 'junk']) {
      const res = await fetch(`${server.url}/api/orders/${mine}`, { headers: { Cookie: `${ORDER_ACCESS_COOKIE}=${token}` } });
      expect(res.status).toBe(200);
      expect((await res.json()).summary).toBe(true);
    }
  });

  it("the order's customer, signed in, reads it from any device; another customer sees only the summary", async () => {
    const id = (await place()).body.order.id as string;
    const otherId = (await place()).body.order.id as string;
    const owner = new Client(server.url).withToken(server.runtime.tokens.signCustomer({ id: await customerOf(id) }));
    const full = await owner.get(`/api/orders/${id}`);
    expect(orderSchema.strict().parse(full.body).customerPhone).toBe('+26771234567');
    const someoneElse = new Client(server.url).withToken(server.runtime.tokens.signCustomer({ id: await customerOf(otherId) }));
    expect(orderSummarySchema.strict().parse((await someoneElse.get(`/api/orders/${id}`)).body).id).toBe(id);
  });

  it('families never get the camera file name: "Photo 423" from the frame number; staff keep the name', async () => {
    const placed = await place();
    const id = placed.body.order.id as string;
    const customer = new Client(server.url).withToken(server.runtime.tokens.signCustomer({ id: await customerOf(id) }));
    const family: Order[] = [
      placed.body.order,
      (await parent.get(`/api/orders/${id}`)).body,
      ((await customer.get('/api/customer/orders')).body as Order[]).find((o) => o.id === id)!,
      (await customer.post(`/api/orders/${id}/cancel`)).body,
    ];
    expect(family).toHaveLength(4);
    for (const order of family) {
      expect(JSON.stringify(order)).not.toMatch(/IMG_0423|IMG_0424/);
      expect(order.items.map((item) => [item.photoOriginalName, item.photoName, item.photoNumber, itemFamilyPhotoLabel(item)])).toEqual([
        [null, null, '0423', 'Photo 423'],
        [null, null, '0424', 'Photo 424'],
      ]);
    }
    const staff = await staffClient(server, 'photographer');
    const forStaff = (await staff.get(`/api/orders/${id}`)).body as Order;
    expect(forStaff.items.map((item) => [item.photoOriginalName, item.photoName])).toEqual([
      ['IMG_0423.JPG', 'IMG_0423.JPG'],
      ['IMG_0424.JPG', 'IMG_0424.JPG'],
    ]);
    expect(((await staff.get('/api/orders')).body as Order[]).find((o) => o.id === id)!.items[0]!.photoOriginalName).toBe('IMG_0423.JPG');
  });
});
