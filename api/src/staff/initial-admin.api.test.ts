/** The first administrator from INITIAL_ADMIN_EMAIL and INITIAL_ADMIN_PASSWORD (docs/accounts.md, "The first administrator"). */
import { afterAll, expect, it } from 'vitest';
import { MSG } from '../../contract/messages';
import { loadConfig } from '../config';
import { Client, describeApi, startTestServer, type TestServer } from '../../test/harness';

const PASSWORD = 'Kgosi-first-admin-2026';

describeApi('the first administrator from the environment', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const server of servers.reverse()) await server.close();
  });

  it('is made on a database with no staff, signs in as admin, and the password is never logged', async () => {
    const logs: string[] = [];
    const server = await startTestServer(
      { INITIAL_ADMIN_EMAIL: 'Owner@Studio.example', INITIAL_ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'info' },
      { logs },
    );
    servers.push(server);
    const anon = new Client(server.url);
    const signedIn = await anon.post('/api/auth/login', { email: 'owner@studio.example', password: PASSWORD });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ email: 'owner@studio.example', role: 'admin', firstName: 'Studio', lastName: 'Administrator' });
    expect(await server.runtime.knex('staff').count({ n: '*' }).first()).toMatchObject({ n: 1 });
    expect(logs.some((line) => line.includes('first administrator created'))).toBe(true);
    expect(logs.join('\n')).not.toContain(PASSWORD);

    // A second process of the same deployment (or a restart) with other values: ignored, and logged.
    const laterLogs: string[] = [];
    const later = await startTestServer(
      { INITIAL_ADMIN_EMAIL: 'intruder@example.test', INITIAL_ADMIN_PASSWORD: `${PASSWORD}-2`, LOG_LEVEL: 'info' },
      { sharedWith: server, logs: laterLogs },
    );
    servers.push(later);
    expect(laterLogs.some((line) => line.includes('INITIAL_ADMIN_EMAIL ignored'))).toBe(true);
    expect(laterLogs.join('\n')).not.toContain(PASSWORD);
    const refused = await new Client(later.url).post('/api/auth/login', { email: 'intruder@example.test', password: `${PASSWORD}-2` });
    expect(refused.status).toBe(401);
    expect(await server.runtime.knex('staff').count({ n: '*' }).first()).toMatchObject({ n: 1 });
  });

  it('is ignored once any staff account exists', async () => {
    const first = await startTestServer();
    servers.push(first);
    const anon = new Client(first.url);
    expect((await anon.post('/api/auth/register', { email: 'neo@example.test', password: 'secret123', firstName: 'Neo', lastName: 'Kgosi' })).status).toBe(201);
    const logs: string[] = [];
    const again = await startTestServer({ INITIAL_ADMIN_EMAIL: 'other@example.test', INITIAL_ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'info' }, { sharedWith: first, logs });
    servers.push(again);
    expect(logs.some((line) => line.includes('INITIAL_ADMIN_EMAIL ignored'))).toBe(true);
    expect(await first.runtime.knex('staff').where({ email: 'other@example.test' }).first()).toBeUndefined();
  });

  it('refuses to start with a weak password or half the pair, naming the variable and never the value', () => {
    const weak = 'qq1';
    expect(() => loadConfig({ INITIAL_ADMIN_EMAIL: 'owner@example.test', INITIAL_ADMIN_PASSWORD: weak, JWT_SECRET: 'x'.repeat(40) })).toThrow(
      `Invalid environment: INITIAL_ADMIN_PASSWORD: ${MSG.passwordMin}`,
    );
    expect(() => loadConfig({ INITIAL_ADMIN_EMAIL: 'not-an-address', INITIAL_ADMIN_PASSWORD: PASSWORD, JWT_SECRET: 'x'.repeat(40) })).toThrow(/INITIAL_ADMIN_EMAIL: /);
    try {
      loadConfig({ INITIAL_ADMIN_EMAIL: 'owner@example.test', INITIAL_ADMIN_PASSWORD: weak, JWT_SECRET: 'x'.repeat(40) });
    } catch (err) {
      expect((err as Error).message).not.toContain(weak);
    }
    expect(() => loadConfig({ INITIAL_ADMIN_PASSWORD: PASSWORD, JWT_SECRET: 'x'.repeat(40) })).toThrow('INITIAL_ADMIN_EMAIL and INITIAL_ADMIN_PASSWORD must be set together');
  });
});
