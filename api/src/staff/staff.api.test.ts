import { afterAll, beforeAll, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import { Client, describeApi, withoutRequestId, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { MSG } from '../../contract/messages';
import { createCustomer } from '../../test/fixtures';

describeApi('staff accounts', () => {
  let server: TestServer;
  let anon: Client;

  beforeAll(async () => {
    server = await startTestServer();
    anon = new Client(server.url);
  });
  afterAll(async () => server.close());

  const admin = { email: 'Owner@Example.test', password: 'secret12', firstName: 'Neo', lastName: 'Kgosi' };

  it('register is open while no staff exists, and the first account becomes admin', async () => {
    expect((await anon.get('/api/auth/register')).body).toEqual({ open: true });

    const bad = await anon.post('/api/auth/register', { email: 'x@example.test', password: '12345', firstName: '', lastName: 'B' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(MSG.passwordMin);
    expect(bad.body.errors).toMatchObject({ password: MSG.passwordMin, firstName: MSG.firstNameRequired });

    const res = await anon.post('/api/auth/register', admin);
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ email: 'owner@example.test', firstName: 'Neo', lastName: 'Kgosi', role: 'admin' });
    expect(res.body.user).not.toHaveProperty('passwordHash');
    expect(res.body.user).not.toHaveProperty('password_hash');
    const claims = jwt.decode(res.body.token, { complete: true });
    expect(claims?.header.alg).toBe('HS256');
    expect(claims?.payload).toMatchObject({ aud: 'staff' });

    const row = await server.runtime.knex('staff').where({ email: 'owner@example.test' }).first();
    const params = /^\$argon2id\$v=19\$([^$]+)\$/.exec(row.password_hash)?.[1] ?? '';
    expect(Object.fromEntries(params.split(',').map((kv: string) => kv.split('=')))).toEqual({ m: '19456', t: '2', p: '1' });
  });

  it('register closes after the first account', async () => {
    expect((await anon.get('/api/auth/register')).body).toEqual({ open: false });
    const res = await anon.post('/api/auth/register', { ...admin, email: 'second@example.test' });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(MSG.registrationClosed);
    expect(await server.runtime.knex('staff').count({ n: '*' }).first()).toMatchObject({ n: 1 });
  });

  it('login validates, refuses wrong passwords with one message, and returns token and user', async () => {
    const invalid = await anon.post('/api/auth/login', { email: 'not-an-email', password: 'secret12' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toBe(MSG.validEmail);
    expect(invalid.body.errors).toHaveProperty('email');

    const wrong = await anon.post('/api/auth/login', { email: admin.email, password: 'wrong-password' });
    const unknown = await anon.post('/api/auth/login', { email: 'nobody@example.test', password: 'wrong-password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(withoutRequestId(wrong.body)).toEqual(withoutRequestId(unknown.body));

    const ok = await anon.post('/api/auth/login', { email: admin.email, password: admin.password });
    expect(ok.status).toBe(200);
    expect(ok.body.user.role).toBe('admin');
    const me = await anon.withToken(ok.body.token).get('/api/auth/me');
    expect(me.body.user.email).toBe('owner@example.test');
  });

  it('malformed JSON is a 400 with a JSON message, never a 500', async () => {
    const res = await anon.post('/api/auth/login', '{"email": ');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(MSG.malformedJson);
  });

  it('forged, expired and wrong-audience tokens are refused', async () => {
    const forged = jwt.sign({}, 'another-secret-another-secret-another', { algorithm: 'HS256', subject: '1', audience: 'staff' });
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"sub":"1","aud":"staff"}').toString('base64url')}.`;
    const expired = jwt.sign({ iat: Math.floor(Date.now() / 1000) - 100 }, server.config.jwtSecret, {
      algorithm: 'HS256',
      subject: '1',
      audience: 'staff',
      expiresIn: 1,
    });
    for (const token of [forged, none, expired]) {
      const res = await anon.withToken(token).get('/api/photographers');
      expect(res.status).toBe(401);
      expect(res.body.message).toBe(MSG.sessionExpired);
    }
    const customer = await createCustomer(server, { email: 'parent@example.test', firstName: 'P', lastName: 'Q' });
    const customerToken = server.runtime.tokens.signCustomer({ id: customer });
    const res = await anon.withToken(customerToken).get('/api/photographers');
    expect(res.status).toBe(403);
  });

  it('photographers: 401 without token, 403 for a photographer, admin lists, adds and deletes', async () => {
    expect((await anon.get('/api/photographers')).status).toBe(401);
    const photographer = await staffClient(server, 'photographer');
    const forbidden = await photographer.get('/api/photographers');
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.message).toBe(MSG.adminOnly);

    const boss = await staffClient(server, 'admin');
    const missing = await boss.post('/api/photographers', { email: 'p@example.test', password: 'secret12', firstName: 'Ama', lastName: '' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe(MSG.lastNameRequired);

    const created = await boss.post('/api/photographers', { email: 'p@example.test', password: 'secret12', firstName: 'Ama', lastName: 'Dube' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email: 'p@example.test', role: 'photographer' });
    const dup = await boss.post('/api/photographers', { email: 'P@example.test', password: 'secret12', firstName: 'Ama', lastName: 'Dube' });
    expect(dup.status).toBe(409);

    const list = await boss.get('/api/photographers');
    expect(list.body.map((u: { email: string }) => u.email)).toContain('p@example.test');

    const login = await anon.post('/api/auth/login', { email: 'p@example.test', password: 'secret12' });
    expect(login.status).toBe(200);
    expect(login.body.user.role).toBe('photographer');

    const del = await boss.delete(`/api/photographers/${created.body.id}`);
    expect(del.status).toBe(200);
    expect(await server.runtime.knex('staff').where({ id: created.body.id }).first()).toBeUndefined();
    // A deleted account's token stops working at once.
    expect((await anon.withToken(login.body.token).get('/api/auth/me')).status).toBe(401);
    expect((await boss.delete(`/api/photographers/${created.body.id}`)).status).toBe(404);
  });

  it('an admin cannot delete themself or the last admin', async () => {
    const boss = await staffClient(server, 'admin');
    const self = await boss.delete(`/api/photographers/${boss.userId}`);
    expect(self.status).toBe(403);
    expect(self.body.message).toBe(MSG.cannotDeleteSelf);
  });

  it('login failures are rate limited per account with 429 and Retry-After', async () => {
    const target = { email: 'owner@example.test', password: 'not-the-password' };
    let last = await anon.post('/api/auth/login', target);
    for (let i = 0; i < 12 && last.status !== 429; i++) last = await anon.post('/api/auth/login', target);
    expect(last.status).toBe(429);
    expect(last.body.message).toBe(MSG.tooManyAttempts);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    // Even the right password waits until the window passes.
    const blocked = await anon.post('/api/auth/login', { email: 'owner@example.test', password: admin.password });
    expect(blocked.status).toBe(429);
  });

  it('errors are JSON with security headers and unknown API paths are 404 JSON', async () => {
    const res = await anon.get('/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ message: MSG.notFound });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self' https://secure.paygate.co.za");
  });
});
