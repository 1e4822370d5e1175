import { afterAll, beforeAll, expect, it } from 'vitest';
import { MSG } from '../../contract/messages';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { createCustomer } from '../../test/fixtures';

/**
 * Guessing one account's password from many addresses slows the answers down but never locks the
 * owner out; the per-client limits stay; invalid reset links are limited per client.
 */
describeApi('sign-in limits', () => {
  let server: TestServer;
  const logs: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: 'true', LOG_LEVEL: 'warn' }, { logs });
  });
  afterAll(() => server?.close());

  const from = (address: string) => ({ 'X-Forwarded-For': address });
  const login = (path: string, email: string, password: string, address: string) => new Client(server.url).post(path, { email, password }, from(address));

  it('many addresses guessing an admin password do not lock the admin out, and it is logged', async () => {
    const admin = await staffClient(server, 'admin');
    const { email } = await server.runtime.knex('staff').where({ id: admin.userId }).first('email');
    // Thirty addresses, one wrong guess each, all at once.
    const guesses = await Promise.all(Array.from({ length: 30 }, (_, i) => login('/api/auth/login', email, `guess-${i}-wrong`, `10.1.0.${i + 1}`)));
    expect(new Set(guesses.map((g) => g.status))).toEqual(new Set([401]));
    // A hundred more from a wider botnet (recorded directly: the answers would only be slower).
    for (let i = 0; i < 100; i++) await server.runtime.limits.fail('staff-login', `10.2.0.${i + 1}`, email);

    // The owner still signs in, from a new address and from one the attackers used.
    const owner = await login('/api/auth/login', email, 'secret123', '192.168.7.7');
    expect(owner.status).toBe(200);
    expect(owner.body.token).toEqual(expect.any(String));
    expect((await login('/api/auth/login', email, 'secret123', '10.1.0.1')).status).toBe(200);

    // Another wrong guess is still only a 401, but a slow one.
    const started = Date.now();
    const slow = await login('/api/auth/login', email, 'still-wrong', '10.3.0.1');
    expect(slow.status).toBe(401);
    expect(slow.body.message).toBe(MSG.invalidCredentials);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4000);

    const warnings = logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.staffId === admin.userId);
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0]).toMatchObject({ level: 40, msg: expect.stringContaining('slowed') });
    expect(logs.join('\n')).not.toMatch(/guess-\d+-wrong|still-wrong|secret123/);
  });

  it('one address still gets 429 after ten wrong passwords for one account', async () => {
    const email = 'pair-limit@example.test';
    let last = await login('/api/auth/login', email, 'wrong-password', '10.9.9.9');
    for (let i = 0; i < 11 && last.status !== 429; i++) last = await login('/api/auth/login', email, 'wrong-password', '10.9.9.9');
    expect(last.status).toBe(429);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await login('/api/auth/login', email, 'wrong-password', '10.9.9.10')).status).toBe(401);
  });

  it('a parent account is not locked out by guesses from many addresses either', async () => {
    const email = 'parent-target@example.test';
    await createCustomer(server, { email, password: 'parent-pass', firstName: 'Neo', lastName: 'Dube' });
    for (let i = 0; i < 120; i++) await server.runtime.limits.fail('customer-login', `10.4.0.${i + 1}`, email);
    const res = await login('/api/auth/customer/login', email, 'parent-pass', '192.168.8.8');
    expect(res.status).toBe(200);
  });

  it('invalid reset links are limited per client (429 with Retry-After), other clients unaffected', async () => {
    const reset = (address: string) =>
      new Client(server.url).post('/api/auth/customer/reset-password', { token: 'not-a-real-token-value-1234567890', newPassword: 'new-pass-1' }, from(address));
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await reset('10.5.5.5')).status);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(400));
    expect(statuses.slice(20)).toEqual([429, 429]);
    const limited = await reset('10.5.5.5');
    expect(limited.body.message).toBe(MSG.tooManyAttempts);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await reset('10.5.5.6')).status).toBe(400);
  });
});
