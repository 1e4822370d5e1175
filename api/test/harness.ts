import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import net, { type AddressInfo } from 'node:net';
import http, { type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { describe, expect, inject } from 'vitest';
import jwt from 'jsonwebtoken';
import { ACCESS_COOKIE, grantTagger } from '../src/http/access';
import { loadConfig, type Config } from '../src/config';
import { createLogger } from '../src/logger';
import { buildRuntime, type Runtime } from '../src/bootstrap';
import { createApp } from '../src/app';
import { createMysqlDatabase, dropMysqlDatabase } from '../src/db/knex';
import { Client } from './client';
import { createStaff, customerClient } from './fixtures';

export const TEST_DB = (process.env.TEST_DB ?? 'sqlite') as 'sqlite' | 'mysql';
export const MYSQL_SERVER_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

/**
 * describe() for API suites. Under the mysql project it skips (loudly, from globalSetup) when no
 * MariaDB answers, except in CI where globalSetup fails instead.
 */
export const describeApi: typeof describe =
  TEST_DB === 'mysql' && !inject('mysqlAvailable') ? (describe.skip as typeof describe) : describe;

/** describe() for API suites that also need the S3 peer (s3rver in-process): skipped loudly without it, a failure in CI. */
export const describeS3: typeof describe = inject('s3Available') ? describeApi : (describe.skip as typeof describe);

/** describe() for API suites that also need Redis (TEST_REDIS_URL, default the local server). */
export const describeRedis: typeof describe = inject('redisAvailable') ? describeApi : (describe.skip as typeof describe);
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestServer {
  url: string;
  runtime: Runtime;
  config: Config;
  storageDir: string;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Reach MariaDB through this address instead (a proxy a test can cut); the database is created directly. */
  mysqlVia?: { host: string; port: number };
  /** Collects the server's log lines (JSON) here; set LOG_LEVEL in env to choose which. */
  logs?: string[];
  /** Also serve a built PWA from this folder. */
  appDir?: string;
  /**
   * A second process of the same deployment: the other server's database, storage folder and JWT
   * secret (pass the same STORAGE_URL in env for a bucket). The database is dropped by its owner.
   */
  sharedWith?: TestServer;
  /** SMS go to this SMS centre (SMS_URL, e.g. a test SMS centre's url from api/test/smsc.ts); unset, into data/sms-outbox. */
  smsUrl?: string;
}

/** A fresh database (its own SQLite file or MariaDB database), storage folder and server per call. */
export async function startTestServer(env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'photos-test-'));
  let databaseUrl = `sqlite:${path.join(dir, 'test.sqlite')}`;
  let mysqlName: string | null = null;
  const shared = options.sharedWith;
  if (shared) {
    databaseUrl = shared.config.databaseUrl;
  } else if (TEST_DB === 'mysql') {
    mysqlName = `t_${randomBytes(6).toString('hex')}`;
    await createMysqlDatabase(MYSQL_SERVER_URL, mysqlName);
    const url = new URL(MYSQL_SERVER_URL);
    url.pathname = `/${mysqlName}`;
    if (options.mysqlVia) {
      url.hostname = options.mysqlVia.host;
      url.port = String(options.mysqlVia.port);
    }
    databaseUrl = url.toString();
  }
  // PUBLIC_URL must be known before the runtime is built: payment return/notify URLs and the
  // sandbox use it. The socket is bound first, on a port the OS picks, and keeps it while the
  // runtime is built (migrations, the pool's connections); the app answers on it once ready.
  const server: Server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', reject);
    server.listen(0, '127.0.0.1');
  });
  const port = (server.address() as AddressInfo).port;
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: databaseUrl,
      STORAGE_DIR: shared ? shared.config.storageDir : path.join(dir, 'storage'),
      DATA_DIR: dir,
      JWT_SECRET: shared ? shared.config.jwtSecret : randomBytes(32).toString('base64url'),
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      SEED_DEMO: 'false',
      BUSINESS_NAME: 'Test Studio',
      // A suite's parents all order from 127.0.0.1, most with one gallery grant: the per-client order
      // limit (10 in 10 minutes) is tested where it is meant, with ORDER_LIMIT_PER_CLIENT set back.
      ORDER_LIMIT_PER_CLIENT: '100000',
      ...(options.smsUrl ? { SMS_URL: options.smsUrl } : {}),
      ...env,
    },
    dir,
  );
  const logs = options.logs;
  let runtime: Runtime;
  try {
    runtime = await buildRuntime(config, createLogger(config.logLevel, logs ? { write: (line: string) => void logs.push(line) } : undefined));
  } catch (err) {
    server.close();
    throw err;
  }
  server.on('request', createApp({ ...runtime, appDir: options.appDir ?? null }).callback());
  return {
    url: `http://127.0.0.1:${port}`,
    runtime,
    config,
    storageDir: config.storageDir,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await runtime.close();
      if (mysqlName) await dropMysqlDatabase(MYSQL_SERVER_URL, mysqlName);
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** A port the OS just handed out and released; good enough for a test server that binds at once. */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export { Client, type JsonResponse } from './client';

let emailCounter = 0;

/** Creates a staff account (password secret123) directly in the database and returns a client holding its token. */
export async function staffClient(server: TestServer, role: 'admin' | 'photographer' = 'admin'): Promise<Client & { userId: number }> {
  const email = `${role}${++emailCounter}-${randomBytes(3).toString('hex')}@example.test`;
  const id = await createStaff(server, { email, password: 'secret123', role });
  const client = new Client(server.url, server.runtime.tokens.signStaff({ id, role })) as Client & { userId: number };
  client.userId = id;
  return client;
}

/** A fresh server and a staff client on it: the start of most staff suites (`env` as for startTestServer). */
export async function startWithStaff(
  role: 'admin' | 'photographer' = 'admin',
  env: Record<string, string> = {},
): Promise<{ server: TestServer; staff: Client & { userId: number } }> {
  const server = await startTestServer(env);
  return { server, staff: await staffClient(server, role) };
}

/**
 * A fresh server with the three callers a staff endpoint meets: a staff client, an anonymous one and
 * a signed-in parent (which staff endpoints refuse with 403).
 */
export async function startWithVisitors(
  role: 'admin' | 'photographer' = 'photographer',
): Promise<{ server: TestServer; staff: Client & { userId: number }; anon: Client; customer: Client }> {
  const { server, staff } = await startWithStaff(role);
  return { server, staff, anon: new Client(server.url), customer: await customerClient(server) };
}

/**
 * The gallery access cookie a parent gets after unlocking schools and classes (docs/access.md), signed as
 * api/src/http/access.ts does, so suites can test access without the unlock endpoints. Each school
 * and class is bound to its first password (grant epoch 0), as if unlocked before any change; a
 * child can only be held through its code (POST /api/students/verify).
 */
export function grantCookie(server: TestServer, grant: { schools: number[]; albums?: number[] }): string {
  const tag = grantTagger(server.config.jwtSecret);
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const entries = (kind: 'school' | 'album', ids: number[]) => ids.map((id) => [id, tag(kind, id, 0), exp]);
  const token = jwt.sign({ g: { s: entries('school', grant.schools), a: entries('album', grant.albums ?? []), st: [] }, exp }, server.config.jwtSecret, {
    algorithm: 'HS256',
    audience: 'gallery',
  });
  return `${ACCESS_COOKIE}=${token}`;
}

const REQUEST_ID = /"requestId":"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/;

/**
 * An error answer with its request id taken out, so two answers that must say the same thing
 * (an unknown account and a wrong password, another family's photo and no photo) can be compared:
 * each carries its own id (docs/operations.md, "Logs and request ids"), and nothing else may differ.
 * A JSON text keeps every other byte; a parsed body loses only that field. Fails when the id is missing.
 */
export function withoutRequestId<T>(body: T): T {
  if (typeof body === 'string') {
    expect(body).toMatch(REQUEST_ID);
    return body.replace(REQUEST_ID, '"requestId":"-"') as T;
  }
  const { requestId, ...rest } = body as Record<string, unknown>;
  expect(requestId).toEqual(expect.any(String));
  return rest as T;
}
