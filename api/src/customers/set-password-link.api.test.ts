import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, describeApi, startTestServer, type TestServer } from '../../test/harness';
import { createShop, orderBody, parentFor, standardLines, type Shop } from '../../test/shop';
import { SET_PASSWORD_LINK_VALIDITY_MS } from '../../contract/constants';
import { resetLinkIn, startMailCatcher, type MailCatcher } from './customers.test-helpers';

const PUBLIC_URL = 'https://photos.example.bw';
const HOUR = 60 * 60 * 1000;

/** The account made at checkout: its first link lasts 7 days (a reset link 1 hour) and opens the page that says "Password set". */
describeApi('the set-password link of an account made at checkout', () => {
  let server: TestServer;
  let mail: MailCatcher;
  let shop: Shop;
  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startTestServer({ SMTP_URL: mail.url, PUBLIC_URL });
    shop = await createShop(server);
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  it('lasts 7 days, says so, marks itself as the first password, and still works hours later', async () => {
    const email = 'first.order@example.test';
    const parent = await parentFor(server, shop);
    const res = await parent.post('/api/orders', orderBody(shop, standardLines(shop), { customerEmail: email }));
    expect(res.body.customerCreated).toBe(true);
    const message = await mail.waitFor(email);
    expect(message.text).toContain('valid for 7 days');
    const link = resetLinkIn(message.text);
    expect(link.searchParams.get('first')).toBe('1');
    const token = link.searchParams.get('token')!;

    const customer = await server.runtime.knex('customers').where({ email }).first();
    const row = await server.runtime.knex('password_reset_tokens').where({ customer_id: customer.id }).first();
    expect(Number(row.expires_at) - Number(row.created_at)).toBe(SET_PASSWORD_LINK_VALIDITY_MS);
    expect(SET_PASSWORD_LINK_VALIDITY_MS).toBeGreaterThanOrEqual(HOUR);

    // Read the next evening: the link still sets the password.
    await server.runtime.knex('password_reset_tokens').where({ id: row.id }).update({ created_at: Number(row.created_at) - 20 * HOUR, expires_at: Number(row.expires_at) - 20 * HOUR });
    const set = await new Client(server.url).post('/api/auth/customer/reset-password', { token, newPassword: 'family-pass' });
    expect(set.status).toBe(200);
    expect(set.body.user.email).toBe(email);

    // A reset asked for later still lasts an hour.
    await new Client(server.url).post('/api/auth/customer/forgot-password', { email });
    await expect.poll(async () => (await server.runtime.knex('password_reset_tokens').where({ customer_id: customer.id })).length).toBe(2);
    const reset = (await server.runtime.knex('password_reset_tokens').where({ customer_id: customer.id }).orderBy('id', 'desc').first())!;
    expect(Number(reset.expires_at) - Number(reset.created_at)).toBe(HOUR);
  });
});
