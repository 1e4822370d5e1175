import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, describeApi, staffClient, type TestServer } from '../../test/harness';
import { orderBody, parentFor, payThroughSandbox, standardLines, startShop, type Shop } from '../../test/shop';
import { HARDENING_MSG, ORDER_MSG } from '../../contract/messages';

/** POST /api/orders/{id}/cancel: only the order's customer, only while it is unpaid (docs/statuses.md). */
describeApi('a parent cancels an unpaid order', () => {
  let server: TestServer;
  let shop: Shop;
  let parent: Client;
  beforeAll(async () => ({ server, shop, parent } = await startShop()));
  afterAll(async () => server.close());

  const place = async (overrides: Record<string, unknown> = {}, client: Client = parent) => {
    const key = randomUUID();
    const res = await client.post('/api/orders', orderBody(shop, standardLines(shop), overrides), { 'Idempotency-Key': key });
    expect(res.status).toBe(201);
    const row = await server.runtime.knex('orders').where({ id: res.body.order.id }).first();
    return { id: res.body.order.id as string, key, customerId: Number(row.customer_id) };
  };
  const tokenFor = (customerId: number) => server.runtime.tokens.signCustomer({ id: customerId });
  const statusOf = async (id: string) => (await server.runtime.knex('orders').where({ id }).first()).order_status as string;

  it('lets the browser that placed it cancel with its Idempotency-Key, and nobody else', async () => {
    const order = await place();
    const other = await place();
    const anon = new Client(server.url);
    const refused = [
      await anon.post(`/api/orders/${order.id}/cancel`),
      await anon.post(`/api/orders/${order.id}/cancel`, undefined, { 'Idempotency-Key': other.key }),
      await anon.withToken(tokenFor(other.customerId)).post(`/api/orders/${order.id}/cancel`),
    ];
    for (const res of refused) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ message: ORDER_MSG.notYourOrder, code: 'NOT_YOUR_ORDER' });
    }
    expect(await statusOf(order.id)).toBe('pending');
    expect((await anon.post(`/api/orders/${order.id}/cancel`, undefined, { 'Idempotency-Key': 'bad key!' })).status).toBe(400);
    expect((await anon.post('/api/orders/NOTANORDER123/cancel', undefined, { 'Idempotency-Key': order.key })).status).toBe(404);

    const cancelled = await anon.post(`/api/orders/${order.id}/cancel`, undefined, { 'Idempotency-Key': order.key });
    expect(cancelled.status).toBe(200);
    expect(cancelled.headers.get('cache-control')).toBe('no-store');
    expect(cancelled.body).toMatchObject({ id: order.id, status: 'cancelled', paymentStatus: 'pending' });
    // Twice is the same answer; a cancelled order cannot be paid.
    expect((await anon.post(`/api/orders/${order.id}/cancel`, undefined, { 'Idempotency-Key': order.key })).body.status).toBe('cancelled');
    const pay = await anon.post('/api/payment/initiate', { orderId: order.id });
    expect(pay.status).toBe(409);
    expect(pay.body.code).toBe('ORDER_CANCELLED');
  });

  it('lets the guest browser that placed it cancel with its order_access cookie alone, and no other browser', async () => {
    const guest = await parentFor(server, shop);
    const neighbour = await parentFor(server, shop);
    const placedByGuest = await guest.post('/api/orders', orderBody(shop, standardLines(shop)));
    const placedByNeighbour = await neighbour.post('/api/orders', orderBody(shop, standardLines(shop)));
    expect(placedByGuest.status).toBe(201);
    expect(placedByNeighbour.status).toBe(201);
    const mine = placedByGuest.body.order.id as string;
    const theirs = placedByNeighbour.body.order.id as string;

    // Another browser, with or without a confirmation token of its own: the same answer as today.
    for (const res of [await neighbour.post(`/api/orders/${mine}/cancel`), await new Client(server.url).post(`/api/orders/${mine}/cancel`), await guest.post(`/api/orders/${theirs}/cancel`)]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ message: ORDER_MSG.notYourOrder, code: 'NOT_YOUR_ORDER' });
    }
    expect(await statusOf(mine)).toBe('pending');
    expect(await statusOf(theirs)).toBe('pending');

    const cancelled = await guest.post(`/api/orders/${mine}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: mine, status: 'cancelled', paymentStatus: 'pending' });
    expect(await statusOf(mine)).toBe('cancelled');

    // Paid, it stays paid whoever asks.
    await payThroughSandbox(server, theirs);
    const paid = await neighbour.post(`/api/orders/${theirs}/cancel`);
    expect(paid.status).toBe(409);
    expect(paid.body).toMatchObject({ code: 'ALREADY_PAID' });
  });

  it('lets the signed-in customer cancel after a declined card, and My Orders then hides the attempt', async () => {
    const order = await place();
    await payThroughSandbox(server, order.id, { card: '4000000000000036' });
    expect((await server.runtime.knex('orders').where({ id: order.id }).first()).payment_status).toBe('failed');
    const paid = await place({ customerEmail: (await server.runtime.knex('orders').where({ id: order.id }).first()).customer_email });
    await payThroughSandbox(server, paid.id);
    const waiting = await place({ customerEmail: (await server.runtime.knex('orders').where({ id: order.id }).first()).customer_email });
    expect(paid.customerId).toBe(order.customerId);
    const customer = new Client(server.url, tokenFor(order.customerId));
    expect((await customer.get('/api/customer/orders')).body.map((o: { id: string }) => o.id).sort()).toEqual([order.id, paid.id, waiting.id].sort());

    const res = await customer.post(`/api/orders/${order.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'cancelled', paymentStatus: 'failed' });
    const mine = (await customer.get('/api/customer/orders')).body.map((o: { id: string }) => o.id);
    expect(mine.sort()).toEqual([paid.id, waiting.id].sort());
    // Staff still see it, as cancelled.
    const staff = await staffClient(server);
    expect((await staff.get(`/api/orders?status=cancelled`)).body.map((o: { id: string }) => o.id)).toContain(order.id);

    // A paid order is never cancelled by its customer.
    const refused = await customer.post(`/api/orders/${paid.id}/cancel`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ message: ORDER_MSG.alreadyPaid, code: 'ALREADY_PAID' });
    expect(await statusOf(paid.id)).toBe('paid');
  });

  it('asks the gateway first: an order paid on the card page but not yet heard of is not cancelled', async () => {
    const order = await place();
    await payThroughSandbox(server, order.id, { followReturn: false });
    const res = await new Client(server.url).post(`/api/orders/${order.id}/cancel`, undefined, { 'Idempotency-Key': order.key });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('ALREADY_PAID');
    expect((await server.runtime.knex('orders').where({ id: order.id }).first()).payment_status).toBe('completed');
  });

  it('refuses an order the studio has moved on, and one whose payment is being set up', async () => {
    const moved = await place();
    const staff = await staffClient(server);
    await staff.put(`/api/orders/${moved.id}`, { orderStatus: 'being_processed' });
    const res = await new Client(server.url).post(`/api/orders/${moved.id}/cancel`, undefined, { 'Idempotency-Key': moved.key });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ message: ORDER_MSG.notCancellable, code: 'ORDER_NOT_CANCELLABLE' });

    const claimed = await place();
    await server.runtime.knex('orders').where({ id: claimed.id }).update({ payment_claimed_until: Date.now() + 20_000 });
    const busy = await new Client(server.url).post(`/api/orders/${claimed.id}/cancel`, undefined, { 'Idempotency-Key': claimed.key });
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ message: HARDENING_MSG.paymentInProgress, code: 'PAYMENT_IN_PROGRESS' });
    expect(await statusOf(claimed.id)).toBe('pending');
  });
});
