import { afterAll, beforeAll, expect, it } from 'vitest';
import { HARDENING_MSG, MSG } from '../../contract/messages';
import { Client, describeApi, type TestServer } from '../../test/harness';
import { orderBody, parentFor, standardLines, startShop, type Shop } from '../../test/shop';

/** An Idempotency-Key belongs to the request it was first sent with. */
describeApi('Idempotency-Key bound to its request', () => {
  let server: TestServer;
  let shop: Shop;
  let parent: Client;
  beforeAll(async () => ({ server, shop, parent } = await startShop()));
  afterAll(() => server?.close());

  const count = async (key: string) => Number((await server.runtime.knex('orders').where({ idempotency_key: key }).count({ n: '*' }).first())?.n);

  it('the same key with a different body is 409, and the first order is not revealed', async () => {
    const key = 'checkout-different-body-1';
    const body = orderBody(shop, standardLines(shop), { customerEmail: 'first@example.test' });
    const first = await parent.post('/api/orders', body, { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    for (const changed of [
      { ...body, customerEmail: 'someone-else@example.test' },
      { ...body, studentName: 'Another Child' },
      orderBody(shop, [standardLines(shop)[0]!], { customerEmail: 'first@example.test' }),
    ]) {
      const res = await parent.post('/api/orders', changed, { 'Idempotency-Key': key });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: HARDENING_MSG.idempotencyKeyReused, code: 'IDEMPOTENCY_KEY_REUSED', requestId: res.headers.get('x-request-id') });
    }
    expect(await count(key)).toBe(1);
    // The very same request, even with different JSON spacing, is still a replay.
    const replay = await parent.post('/api/orders', JSON.stringify(body, null, 2), { 'Idempotency-Key': key });
    expect(replay.status).toBe(200);
    expect(replay.body.order.id).toBe(first.body.order.id);
  });

  it('a replay needs the same gallery grant as a new order', async () => {
    const key = 'checkout-grant-check-1';
    const body = orderBody(shop, standardLines(shop));
    expect((await parent.post('/api/orders', body, { 'Idempotency-Key': key })).status).toBe(201);
    const stranger = new Client(server.url);
    const res = await stranger.post('/api/orders', body, { 'Idempotency-Key': key });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe(MSG.schoolAccessRequired);
    expect(JSON.stringify(res.body)).not.toContain('Mpho');
  });

  it('a replay of an order for a protected class needs that class grant too', async () => {
    const key = 'checkout-protected-class-1';
    const withClass = await parentFor(server, shop, { protectedClass: true });
    const body = orderBody(shop, [{ photoId: shop.protectedPhotoId, albumId: shop.protectedAlbumId, product: shop.print, quantity: 1 }]);
    expect((await withClass.post('/api/orders', body, { 'Idempotency-Key': key })).status).toBe(201);
    const schoolOnly = await parentFor(server, shop);
    const res = await schoolOnly.post('/api/orders', body, { 'Idempotency-Key': key });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(MSG.classAccessRequired);
  });

  it('a key is bound to the customer who used it', async () => {
    const key = 'checkout-customer-bound-1';
    const body = orderBody(shop, standardLines(shop));
    expect((await parent.post('/api/orders', body, { 'Idempotency-Key': key })).status).toBe(201);
    const registered = await new Client(server.url).post('/api/auth/customer/register', {
      firstName: 'Kabo',
      lastName: 'Moeng',
      email: 'kabo@example.test',
      password: 'secret12',
      confirmPassword: 'secret12',
    });
    const signedIn = await parentFor(server, shop);
    signedIn.token = registered.body.token;
    expect((await signedIn.post('/api/orders', body, { 'Idempotency-Key': key })).status).toBe(409);
  });
});
