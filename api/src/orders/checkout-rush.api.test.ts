import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeApi, startTestServer, type Client, type TestServer } from '../../test/harness';
import { createShop, orderBody, parentFor, standardLines, waitUntil, type Shop } from '../../test/shop';
import { mailsTo, startMailCatcher, type MailCatcher } from '../customers/customers.test-helpers';

/**
 * Parents who order at the same moment as new customers each get their account and the e-mail to
 * set its password: the database taking one of two colliding writes back (a deadlock on MariaDB)
 * must not cost anyone their e-mail.
 */
describeApi('checkout at a rush', () => {
  let server: TestServer;
  let mail: MailCatcher;
  let shop: Shop;
  let parent: Client;

  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startTestServer({ SMTP_URL: mail.url });
    shop = await createShop(server);
    parent = await parentFor(server, shop);
  });
  afterAll(async () => {
    await server.close();
    await mail.close();
  });

  it('30 new customers ordering at once: every order placed, every one of them mailed once', async () => {
    const bodies = Array.from({ length: 30 }, (_, i) => orderBody(shop, standardLines(shop), { customerEmail: `rush-${i}@example.test` }));
    const placed = await Promise.all(bodies.map((body) => parent.post('/api/orders', body)));
    expect(placed.map((res) => res.status)).toEqual(bodies.map(() => 201));
    expect(placed.every((res) => res.body.customerCreated === true)).toBe(true);
    await waitUntil(async () => bodies.every((body) => mailsTo(mail, body.customerEmail).length >= 1), 15_000);
    for (const body of bodies) expect(mailsTo(mail, body.customerEmail), body.customerEmail).toHaveLength(1);
  });
});
