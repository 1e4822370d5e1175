import { afterAll, beforeAll, expect, it } from 'vitest';
import { ORDER_LIMIT_MSG, SET_PASSWORD_MAILS_PER_DAY } from '../../contract/order-limits';
import { describeApi, startTestServer, type TestServer } from '../../test/harness';
import { createShop, orderBody, parentFor, standardLines, type Shop } from '../../test/shop';
import { mailsTo, startMailCatcher, type MailCatcher } from '../customers/customers.test-helpers';

/**
 * Placing orders is limited per client, its address and its gallery grant (docs/access.md,
 * "Placing orders"), and the "set your password" e-mails of accounts made at checkout are bounded
 * per inbox per day (docs/accounts.md, "Account created at checkout"). Clients differ by
 * X-Forwarded-For, trusted here as behind a proxy.
 */
describeApi('limits on placing orders', () => {
  let server: TestServer;
  let mail: MailCatcher;
  let shop: Shop;
  let other: Shop;
  beforeAll(async () => {
    mail = await startMailCatcher();
    // The limit as it is by default (the harness raises it for suites that play many parents).
    server = await startTestServer({ SMTP_URL: mail.url, TRUST_PROXY: 'true', ORDER_LIMIT_PER_CLIENT: '10' });
    shop = await createShop(server);
    other = await createShop(server);
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  const from = (address: string) => ({ 'X-Forwarded-For': address });
  const orderCount = async () => (await server.runtime.knex('orders')).length;

  it('ten orders in ten minutes from one address and grant, then 429 with Retry-After and nothing written; other clients are not held back', async () => {
    const parent = await parentFor(server, shop);
    const before = await orderCount();
    for (let i = 0; i < 10; i++) {
      const res = await parent.post('/api/orders', orderBody(shop, standardLines(shop), { customerEmail: `busy-${i}@example.test` }), from('198.51.100.7'));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const eleventh = await parent.post('/api/orders', orderBody(shop, standardLines(shop), { customerEmail: 'busy-10@example.test' }), from('198.51.100.7'));
    expect([eleventh.status, eleventh.body.code, eleventh.body.message]).toEqual([429, 'RATE_LIMITED', ORDER_LIMIT_MSG.tooManyOrders]);
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await orderCount()).toBe(before + 10);
    expect(await server.runtime.knex('customers').where({ email: 'busy-10@example.test' })).toHaveLength(0);

    // Unlocking the school again does not make it another client.
    const again = await parentFor(server, shop);
    expect((await again.post('/api/orders', orderBody(shop, standardLines(shop)), from('198.51.100.7'))).status).toBe(429);
    // Another family behind the same address (another grant) and the same grant elsewhere still order.
    const neighbour = await parentFor(server, other);
    expect((await neighbour.post('/api/orders', orderBody(other, standardLines(other)), from('198.51.100.7'))).status).toBe(201);
    expect((await parent.post('/api/orders', orderBody(shop, standardLines(shop)), from('198.51.100.8'))).status).toBe(201);
  });

  it('"set your password" e-mails to one inbox stop after the day\'s share, however the address is spelt; the orders still stand', async () => {
    const spellings = ['Victim+1@gmail.com', 'v.ictim+2@gmail.com', 'vi.ctim@googlemail.com', 'victim+4@gmail.com', 'V.I.C.T.I.M@gmail.com'];
    const answers = [];
    for (const [i, email] of spellings.entries()) {
      const parent = await parentFor(server, shop);
      const res = await parent.post('/api/orders', orderBody(shop, standardLines(shop), { customerEmail: email }), from(`203.0.113.${i + 1}`));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      answers.push(res.body.customerCreated as boolean);
    }
    expect(answers).toEqual(spellings.map((_, i) => i < SET_PASSWORD_MAILS_PER_DAY));
    const queued = await server.runtime.knex('outbox_messages').where({ kind: 'set_password' }).whereIn('recipient', spellings.map((email) => email.trim().toLowerCase()).concat(spellings));
    expect(queued).toHaveLength(SET_PASSWORD_MAILS_PER_DAY);
    // Every order was placed, each with its account; the later accounts simply got no link.
    const accounts = await server.runtime.knex('customers').whereIn('email', spellings.map((email) => email.toLowerCase()));
    expect(accounts).toHaveLength(spellings.length);
    await expect.poll(() => spellings.flatMap((email) => mailsTo(mail, email)).length, { timeout: 10_000 }).toBe(SET_PASSWORD_MAILS_PER_DAY);
  });
});
