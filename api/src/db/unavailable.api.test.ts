import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARDENING_MSG, MSG } from '../../contract/messages';
import { Client, MYSQL_SERVER_URL, TEST_DB, describeApi, staffClient, startTestServer, startWithStaff, type TestServer } from '../../test/harness';
import { startTcpProxy, type TcpProxy } from '../../test/tcp-proxy';
import { schoolInput } from '../schools/schools.test-helpers';

const unavailable = { message: HARDENING_MSG.databaseUnavailable, code: 'DATABASE_UNAVAILABLE' };

async function expectUnavailable(res: Promise<{ status: number; body: unknown; headers: Headers }>) {
  const answer = await res;
  expect(answer.status).toBe(503);
  expect(answer.body).toEqual({ ...unavailable, requestId: answer.headers.get('x-request-id') });
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
}

/** Health names the dependency that is down, beside the same message and code as every other answer. */
async function expectHealthDown(res: Promise<{ status: number; body: unknown; headers: Headers }>) {
  const answer = await res;
  expect(answer.status).toBe(503);
  expect(answer.body).toEqual({ ...unavailable, status: 'unavailable', database: 'down', storage: 'ok', redis: 'not configured', requestId: answer.headers.get('x-request-id') });
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
}

/** While the database cannot answer, every answer is a 503 with Retry-After, and service resumes after. */
describeApi('an unavailable database', () => {
  describe.runIf(TEST_DB === 'mysql')('MariaDB behind a connection that is cut', () => {
    let proxy: TcpProxy;
    let server: TestServer;
    let staff: Client;
    let anon: Client;

    beforeAll(async () => {
      const target = new URL(MYSQL_SERVER_URL);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 3306) });
      server = await startTestServer({}, { mysqlVia: { host: '127.0.0.1', port: proxy.port } });
      staff = await staffClient(server, 'admin');
      anon = new Client(server.url);
    });
    afterAll(async () => {
      await proxy?.restore().catch(() => undefined);
      await server?.close();
      await proxy?.close();
    });

    it('health, reads, logins and writes answer 503 while it is down, and work again after', async () => {
      expect((await anon.get('/api/health')).status).toBe(200);
      expect((await anon.get('/api/schools')).status).toBe(200);
      await proxy.cut();
      await expectHealthDown(anon.get('/api/health'));
      await expectUnavailable(anon.get('/api/schools'));
      await expectUnavailable(anon.post('/api/auth/login', { email: 'someone@example.test', password: 'whatever1' }));
      await expectUnavailable(staff.post('/api/schools', schoolInput()));
      await proxy.restore();
      expect((await anon.get('/api/health')).status).toBe(200);
      expect((await staff.post('/api/schools', schoolInput())).status).toBe(201);
      expect((await anon.post('/api/auth/login', { email: 'someone@example.test', password: 'whatever1' })).body.message).toBe(MSG.invalidCredentials);
    });
  });

  describe.runIf(TEST_DB === 'sqlite')('SQLite', () => {
    let server: TestServer;
    let staff: Client;
    let anon: Client;

    beforeAll(async () => {
      ({ server, staff } = await startWithStaff('admin'));
      anon = new Client(server.url);
    });
    afterAll(() => server?.close());

    it('a write while another process holds the write lock is a 503 once the wait runs out', async () => {
      const other = new Database(server.runtime.database);
      try {
        other.exec('BEGIN IMMEDIATE');
        await expectUnavailable(staff.post('/api/schools', schoolInput()));
        other.exec('ROLLBACK');
        expect((await staff.post('/api/schools', schoolInput())).status).toBe(201);
      } finally {
        other.close();
      }
    });

    it('with its connection pool gone, health and every call are 503 until it is back', async () => {
      await server.runtime.knex.destroy();
      try {
        await expectHealthDown(anon.get('/api/health'));
        await expectUnavailable(anon.get('/api/schools'));
        await expectUnavailable(staff.get('/api/photographers'));
      } finally {
        server.runtime.knex.initialize();
      }
      expect((await anon.get('/api/health')).status).toBe(200);
      expect((await staff.get('/api/photographers')).status).toBe(200);
    });
  });
});
