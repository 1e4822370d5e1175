import { spawn } from 'node:child_process';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { createStaff } from '../../test/fixtures';
import { MSG } from '../../contract/messages';
import { mailsTo, resetLinkIn, startMailCatcher, type MailCatcher } from '../customers/customers.test-helpers';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** A staff account made in the database, signed in over HTTP: its token as a client. */
async function signIn(server: TestServer, email: string, password: string): Promise<Client> {
  const res = await new Client(server.url).post('/api/auth/login', { email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return new Client(server.url, res.body.token as string);
}

/** Rotating staff credentials (docs/accounts.md, "Staff passwords" and "Staff sessions"). */
describeApi('staff credentials', () => {
  let server: TestServer;
  let mail: MailCatcher;
  let anon: Client;

  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startTestServer({ SMTP_URL: mail.url });
    anon = new Client(server.url);
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  it('a staff member changes their password: the wrong current one is refused, and every older token stops working', async () => {
    await createStaff(server, { email: 'ama@example.test', password: 'first-pass', role: 'photographer' });
    const laptop = await signIn(server, 'ama@example.test', 'first-pass');
    const phone = await signIn(server, 'ama@example.test', 'first-pass');

    const wrong = await laptop.post('/api/auth/password', { currentPassword: 'not-it', newPassword: 'second-pass' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ message: MSG.currentPasswordWrong, errors: { currentPassword: MSG.currentPasswordWrong } });
    const short = await laptop.post('/api/auth/password', { currentPassword: 'first-pass', newPassword: '123' });
    expect(short.status).toBe(400);
    expect(short.body.errors).toHaveProperty('newPassword', MSG.passwordMin);
    expect((await anon.post('/api/auth/password', { currentPassword: 'first-pass', newPassword: 'second-pass' })).status).toBe(401);

    const changed = await laptop.post('/api/auth/password', { currentPassword: 'first-pass', newPassword: 'second-pass' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ message: MSG.passwordChanged, user: { email: 'ama@example.test' }, token: expect.any(String) });
    const row = await server.runtime.knex('staff').where({ email: 'ama@example.test' }).first('tokens_valid_after');
    expect(Number(row.tokens_valid_after)).toBeGreaterThan(Date.now() - 60_000);

    for (const old of [laptop, phone]) {
      const me = await old.get('/api/auth/me');
      expect(me.status).toBe(401);
      expect(me.body.message).toBe(MSG.sessionExpired);
    }
    expect((await laptop.withToken(changed.body.token).get('/api/auth/me')).body.user.email).toBe('ama@example.test');
    expect((await anon.post('/api/auth/login', { email: 'ama@example.test', password: 'first-pass' })).status).toBe(401);
    expect((await anon.post('/api/auth/login', { email: 'ama@example.test', password: 'second-pass' })).status).toBe(200);
  });

  it('a forgotten password is reset by e-mail: the same answer for unknown addresses, a one-time link to the staff page, older sessions void', async () => {
    await createStaff(server, { email: 'thabo@example.test', password: 'old-password', role: 'admin', firstName: 'Thabo' });
    const before = await signIn(server, 'thabo@example.test', 'old-password');

    const known = await anon.post('/api/auth/forgot-password', { email: 'Thabo@Example.test' });
    const unknown = await anon.post('/api/auth/forgot-password', { email: 'nobody@example.test' });
    expect(known.status).toBe(200);
    expect(known.body).toEqual({ message: MSG.resetLinkSent });
    expect(unknown.body).toEqual(known.body);
    expect((await anon.post('/api/auth/forgot-password', { email: 'not-an-email' })).status).toBe(400);

    const message = await mail.waitFor('thabo@example.test');
    expect(message.text).toContain('Thabo');
    const link = resetLinkIn(message.text);
    expect(link.origin).toBe(server.url);
    expect(link.pathname).toBe('/photographer/reset-password');
    const token = link.searchParams.get('token') ?? '';
    const stored = await server.runtime.knex('staff_reset_tokens').first('token_hash');
    expect(stored.token_hash).not.toBe(token);

    // A customer's reset endpoint knows nothing of staff links, and the other way round.
    expect((await anon.post('/api/auth/customer/reset-password', { token, newPassword: 'new-password' })).status).toBe(400);
    const reset = await anon.post('/api/auth/reset-password', { token, newPassword: 'new-password' });
    expect(reset.status).toBe(200);
    expect(reset.body.user).toMatchObject({ email: 'thabo@example.test', role: 'admin' });
    expect((await anon.withToken(reset.body.token).get('/api/auth/me')).status).toBe(200);
    expect((await before.get('/api/auth/me')).status).toBe(401);

    const again = await anon.post('/api/auth/reset-password', { token, newPassword: 'third-password' });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(MSG.resetLinkInvalid);
    expect((await anon.post('/api/auth/login', { email: 'thabo@example.test', password: 'new-password' })).status).toBe(200);
  });

  it('reset requests are rate limited like customers', async () => {
    let last = await anon.post('/api/auth/forgot-password', { email: 'flood@example.test' });
    for (let i = 0; i < 8 && last.status !== 429; i++) last = await anon.post('/api/auth/forgot-password', { email: 'flood@example.test' });
    expect(last.status).toBe(429);
    expect(last.body.message).toBe(MSG.tooManyAttempts);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(mailsTo(mail, 'flood@example.test')).toHaveLength(0);
  });

  it("an admin signs another staff member out everywhere; a photographer cannot, and nobody revokes their own this way", async () => {
    const admin = await staffClient(server, 'admin');
    const id = await createStaff(server, { email: 'lost-phone@example.test', password: 'secret123', role: 'photographer' });
    const victim = await signIn(server, 'lost-phone@example.test', 'secret123');
    const photographer = await staffClient(server, 'photographer');

    const refused = await photographer.post(`/api/photographers/${admin.userId}/sign-out`);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(MSG.adminOnly);
    expect((await admin.get('/api/auth/me')).status).toBe(200);

    const self = await admin.post(`/api/photographers/${admin.userId}/sign-out`);
    expect(self.status).toBe(403);
    expect(self.body.message).toBe(MSG.cannotRevokeSelf);
    expect((await admin.post('/api/photographers/999999/sign-out')).status).toBe(404);
    expect((await admin.post('/api/photographers/abc/sign-out')).status).toBe(400);

    const revoked = await admin.post(`/api/photographers/${id}/sign-out`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ message: MSG.sessionsRevoked });
    expect((await victim.get('/api/auth/me')).status).toBe(401);
    // The password still works: the owner signs in again on the devices they have.
    expect((await anon.post('/api/auth/login', { email: 'lost-phone@example.test', password: 'secret123' })).status).toBe(200);
  });
});

/** Runs `npm run create-admin` (its script) against a database with the password on standard input. */
function createAdmin(databaseUrl: string, args: string[], password: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/src/staff/create-admin-cli.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: databaseUrl },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stdin.end(`${password}\n`);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

/** Production on an empty database: nobody claims the studio through the register page (docs/accounts.md, "The first administrator"). */
describeApi('the first administrator in production', () => {
  let server: TestServer;
  let mail: MailCatcher;
  let anon: Client;

  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startTestServer({ NODE_ENV: 'production', SMTP_URL: mail.url, PAYGATE_ID: '1000000001', PAYGATE_SECRET: randomBytes(12).toString('hex') });
    anon = new Client(server.url);
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  it('register stays closed on an empty database; npm run create-admin makes the admin, who signs in', async () => {
    expect((await anon.get('/api/auth/register')).body).toEqual({ open: false });
    const claim = await anon.post('/api/auth/register', { email: 'first@example.test', password: 'secret12', firstName: 'Eve', lastName: 'Early' });
    expect(claim.status).toBe(403);
    expect(claim.body.message).toBe(MSG.registrationServerOnly);
    expect(await server.runtime.knex('staff').count({ n: '*' }).first()).toMatchObject({ n: 0 });

    const args = ['--email', 'Owner@Studio.test', '--first-name', 'Neo', '--last-name', 'Kgosi'];
    const short = await createAdmin(server.config.databaseUrl, args, '123');
    expect(short.code).toBe(1);
    expect(short.output).toContain(MSG.passwordMin);
    const made = await createAdmin(server.config.databaseUrl, args, 'a long admin password');
    expect(made.output).toContain('Administrator owner@studio.test created');
    expect(made.output).not.toContain('a long admin password');
    expect(made.code).toBe(0);
    const twice = await createAdmin(server.config.databaseUrl, args, 'a long admin password');
    expect(twice.code).toBe(1);
    expect(twice.output).toContain(MSG.emailTaken);

    const login = await anon.post('/api/auth/login', { email: 'owner@studio.test', password: 'a long admin password' });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ role: 'admin', firstName: 'Neo', lastName: 'Kgosi' });
    const later = await anon.post('/api/auth/register', { email: 'second@example.test', password: 'secret12', firstName: 'A', lastName: 'B' });
    expect(later.status).toBe(403);
    expect(later.body.message).toBe(MSG.registrationClosed);
  }, 60_000);
});
