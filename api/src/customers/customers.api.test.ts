import { afterAll, beforeAll, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { MSG } from '../../contract/messages';
import { hashResetToken } from './customers.reset-tokens';
import { CUSTOMER_EMAIL_TAKEN, RESET_LINK_SENT, createCustomerService, findOrCreateCheckoutCustomer } from './customers.service';
import { mailsTo, rawPost, resetLinkIn, startMailCatcher, type MailCatcher } from './customers.test-helpers';
import { expireResetToken } from '../../test/fixtures';
import { createDatabase } from '../db/database';

const PUBLIC_URL = 'https://photos.example.test';

describeApi('customer accounts', () => {
  let mail: MailCatcher;
  let server: TestServer;
  let anon: Client;

  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startTestServer({ SMTP_URL: mail.url, PUBLIC_URL });
    anon = new Client(server.url);
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  const account = (email: string, password = 'secret12') => ({ firstName: 'Jane', lastName: 'Molefe', email, password, confirmPassword: password });

  async function register(email: string, password = 'secret12') {
    const res = await anon.post('/api/auth/customer/register', account(email, password));
    if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { token: string; user: { id: number; email: string } };
  }

  /** Requests a reset link and returns the token from the mail that arrives. */
  async function requestResetToken(email: string, headers: Record<string, string> = {}) {
    const before = mail.messages.length;
    const res = await rawPost(server.url, '/api/auth/customer/forgot-password', { email }, headers);
    expect(res.status).toBe(200);
    const message = await mail.waitFor(email, before);
    const link = resetLinkIn(message.text);
    return { token: link.searchParams.get('token') ?? '', link, message };
  }

  /** JWT times are whole seconds: a token must be from an earlier second than the reset that voids it. */
  async function nextSecondAfter(token: string) {
    const iat = (jwt.decode(token) as { iat: number }).iat;
    while (Math.floor(Date.now() / 1000) <= iat) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  it('answers 400 with the spec texts', async () => {
    const cases: Array<[string, unknown, string, string]> = [
      ['/api/auth/customer/register', { ...account('a@example.test'), confirmPassword: 'other123' }, "Passwords don't match", 'confirmPassword'],
      ['/api/auth/customer/register', account('a@example.test', '12345'), MSG.passwordMin, 'password'],
      ['/api/auth/customer/register', { ...account('a@example.test'), firstName: ' ' }, MSG.firstNameRequired, 'firstName'],
      ['/api/auth/customer/login', { email: 'a@example.test' }, 'Password is required', 'password'],
      ['/api/auth/customer/login', { email: 'a@example.test', password: '' }, 'Password is required', 'password'],
      ['/api/auth/customer/login', { email: 'nope', password: 'secret12' }, MSG.validEmail, 'email'],
      ['/api/auth/customer/forgot-password', { email: 'not-an-email' }, 'Valid email is required', 'email'],
      ['/api/auth/customer/reset-password', { token: 'abc', newPassword: '12345' }, 'Password must be at least 6 characters', 'newPassword'],
      ['/api/auth/customer/reset-password', { newPassword: 'secret12' }, 'No reset token found', 'token'],
      ['/api/auth/customer/reset-password', { token: '  ', newPassword: 'secret12' }, 'No reset token found', 'token'],
    ];
    for (const [url, body, message, field] of cases) {
      const res = await anon.post(url, body);
      expect(res.status, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.message).toBe(message);
      expect(res.body.errors).toHaveProperty(field, message);
    }
  });

  it('registers, signs in and answers /me; the password is stored as argon2id', async () => {
    const res = await anon.post('/api/auth/customer/register', account('Jane@Example.test'));
    expect(res.status).toBe(201);
    expect(res.body.user).toEqual({
      id: expect.any(Number),
      email: 'jane@example.test',
      firstName: 'Jane',
      lastName: 'Molefe',
      phone: null,
      createdAt: expect.any(String),
    });
    expect(jwt.decode(res.body.token, { complete: true })).toMatchObject({ header: { alg: 'HS256' }, payload: { aud: 'customer' } });

    const row = await server.runtime.knex('customers').where({ email: 'jane@example.test' }).first();
    // Parameter order in the PHC string differs between argon2 versions; compare them as a set.
    const [, kind, version, params] = String(row.password_hash).split('$');
    expect([kind, version]).toEqual(['argon2id', 'v=19']);
    expect(Object.fromEntries((params ?? '').split(',').map((pair) => pair.split('=')))).toEqual({ m: '19456', t: '2', p: '1' });

    const login = await anon.post('/api/auth/customer/login', { email: 'JANE@example.test', password: 'secret12' });
    expect(login.status).toBe(200);
    expect(login.body.user).toEqual(res.body.user);
    const me = await anon.withToken(login.body.token).get('/api/auth/customer/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ user: res.body.user });
  });

  it('refuses a second account for the same address with 409', async () => {
    const res = await anon.post('/api/auth/customer/register', account('JANE@example.test', 'another1'));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(CUSTOMER_EMAIL_TAKEN);
    expect(await server.runtime.knex('customers').where({ email: 'jane@example.test' }).count({ n: '*' }).first()).toMatchObject({ n: 1 });
  });

  it('gives one 401 body for a wrong password, an unknown address and an account without a password', async () => {
    await findOrCreateCheckoutCustomer(server.runtime.knex, { email: 'nopass@example.test', name: 'No Pass' });
    const wrong = await anon.post('/api/auth/customer/login', { email: 'jane@example.test', password: 'wrong-one' });
    const unknown = await anon.post('/api/auth/customer/login', { email: 'nobody@example.test', password: 'wrong-one' });
    const noPassword = await anon.post('/api/auth/customer/login', { email: 'nopass@example.test', password: 'wrong-one' });
    for (const res of [wrong, unknown, noPassword]) expect(res.status).toBe(401);
    // The same body but for each answer's own request id.
    for (const res of [wrong, unknown, noPassword]) {
      expect(res.body).toEqual({ message: MSG.invalidCredentials, code: 'INVALID_CREDENTIALS', requestId: res.headers.get('x-request-id') });
    }
  });

  it('keeps customer and staff sessions apart', async () => {
    expect((await anon.get('/api/auth/customer/me')).status).toBe(401);
    expect((await anon.withToken('not-a-jwt').get('/api/auth/customer/me')).status).toBe(401);
    const staff = await staffClient(server, 'admin');
    const asStaff = await staff.get('/api/auth/customer/me');
    expect(asStaff.status).toBe(403);
    expect(asStaff.body.message).toBe(MSG.customerOnly);
    const { token } = await register('apart@example.test');
    const onStaffRoute = await anon.withToken(token).get('/api/auth/me');
    expect(onStaffRoute.status).toBe(403);
  });

  it('answers forgot-password byte-identically for known and unknown addresses', async () => {
    const known = await rawPost(server.url, '/api/auth/customer/forgot-password', { email: 'jane@example.test' });
    const unknown = await rawPost(server.url, '/api/auth/customer/forgot-password', { email: 'ghost@example.test' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.text).toBe(JSON.stringify({ message: RESET_LINK_SENT }));
    expect(unknown.text).toBe(known.text);
    expect(unknown.headers['content-type']).toBe(known.headers['content-type']);
    await mail.waitFor('jane@example.test');
    expect(mailsTo(mail, 'ghost@example.test')).toHaveLength(0);
  });

  it('mails a link built from PUBLIC_URL, whatever Host the request names, and stores only its hash', async () => {
    const { token, link, message } = await requestResetToken('jane@example.test', { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example' });
    expect(link.origin).toBe(PUBLIC_URL);
    expect(link.pathname).toBe('/reset-password');
    expect(message.raw).not.toContain('evil.example');
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);

    const customer = await server.runtime.knex('customers').where({ email: 'jane@example.test' }).first();
    const rows = await server.runtime.knex('password_reset_tokens').where({ customer_id: customer.id });
    expect(JSON.stringify(rows)).not.toContain(token);
    const live = rows.filter((row) => row.used_at === null);
    expect(live).toHaveLength(1);
    expect(live[0].token_hash).toBe(hashResetToken(token));
    expect(Number(live[0].expires_at) - Number(live[0].created_at)).toBe(60 * 60 * 1000);
  });

  it('resets the password once, signs the customer in and ends older sessions', async () => {
    const email = 'reset@example.test';
    const { token: oldSession } = await register(email, 'first-pass');
    const { token } = await requestResetToken(email);
    await nextSecondAfter(oldSession);

    const res = await anon.post('/api/auth/customer/reset-password', { token, newPassword: 'second-pass' });
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(email);
    expect((await anon.withToken(res.body.token).get('/api/auth/customer/me')).status).toBe(200);
    const old = await anon.withToken(oldSession).get('/api/auth/customer/me');
    expect(old.status).toBe(401);

    const again = await anon.post('/api/auth/customer/reset-password', { token, newPassword: 'third-pass' });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('This password reset link is invalid or has expired.');

    expect((await anon.post('/api/auth/customer/login', { email, password: 'first-pass' })).status).toBe(401);
    expect((await anon.post('/api/auth/customer/login', { email, password: 'second-pass' })).status).toBe(200);
    const row = await server.runtime.knex('customers').where({ email }).first();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('voids the older link when a newer one is requested', async () => {
    const email = 'newer@example.test';
    await register(email);
    const first = await requestResetToken(email);
    const second = await requestResetToken(email);
    expect(second.token).not.toBe(first.token);
    const stale = await anon.post('/api/auth/customer/reset-password', { token: first.token, newPassword: 'changed-1' });
    expect(stale.status).toBe(400);
    expect(stale.body.message).toBe(MSG.resetLinkInvalid);
    expect((await anon.post('/api/auth/customer/reset-password', { token: second.token, newPassword: 'changed-1' })).status).toBe(200);
  });

  it('refuses an expired link and a made-up one', async () => {
    const email = 'expired@example.test';
    await register(email);
    const { token } = await requestResetToken(email);
    await expireResetToken(server, hashResetToken(token));
    const expired = await anon.post('/api/auth/customer/reset-password', { token, newPassword: 'changed-1' });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe(MSG.resetLinkInvalid);

    const madeUp = await anon.post('/api/auth/customer/reset-password', { token: 'x'.repeat(43), newPassword: 'changed-1' });
    expect(madeUp.status).toBe(400);
    expect(madeUp.body.message).toBe(MSG.resetLinkInvalid);
    expect((await anon.post('/api/auth/customer/login', { email, password: 'secret12' })).status).toBe(200);
  });

  it('creates checkout accounts without a password and mails them a set-password link', async () => {
    const knex = server.runtime.knex;
    const made = await findOrCreateCheckoutCustomer(knex, { email: ' Pat@Example.test ', name: ' Pat  van der Merwe ', phone: '71234567' });
    expect(made).toEqual({
      created: true,
      customer: { id: expect.any(Number), email: 'pat@example.test', firstName: 'Pat', lastName: 'van der Merwe' },
    });
    const row = await knex('customers').where({ id: made.customer.id }).first();
    expect(row.password_hash).toBeNull();
    expect(row.phone).toBe('71234567');

    const again = await knex.transaction((trx) => findOrCreateCheckoutCustomer(trx, { email: 'pat@example.test', name: 'Someone Else' }));
    expect(again).toEqual({ created: false, customer: made.customer });
    expect((await anon.post('/api/auth/customer/register', account('pat@example.test'))).status).toBe(409);

    // As an order does it: the token and its e-mail's outbox row in the order's transaction, the kick after the commit.
    const { outbox } = server.runtime.services;
    const customers = createCustomerService(server.runtime, outbox);
    const before = mail.messages.length;
    const token = await createDatabase(knex).transaction(async (tx) => {
      const issued = await customers.issueSetPasswordToken(made.customer.id, tx);
      await customers.mailSetPasswordLink(made.customer, issued, tx);
      return issued;
    });
    outbox.kick();
    const message = await mail.waitFor('pat@example.test', before);
    const link = resetLinkIn(message.text);
    expect(link.searchParams.get('token')).toBe(token);
    expect(link.origin).toBe(PUBLIC_URL);
    const res = await anon.post('/api/auth/customer/reset-password', { token: link.searchParams.get('token'), newPassword: 'pat-pass' });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email: 'pat@example.test', firstName: 'Pat', lastName: 'van der Merwe', phone: '71234567' });
  });

  it('limits a burst of forgot-password requests for one address', async () => {
    const email = 'burst@example.test';
    await register(email);
    const before = mail.messages.length;
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 8; i++) {
      const res = await rawPost(server.url, '/api/auth/customer/forgot-password', { email });
      statuses.push(res.status);
      if (res.status === 429) retryAfter ??= res.headers['retry-after'] as string;
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    await mail.waitFor(email, before);
    await mail.noMoreThan(5, { to: email, after: before, within: 300 });
    expect(mail.messages.slice(before).filter((m) => m.to.includes(email)).length).toBeLessThanOrEqual(5);
  });
});
