import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TEST_DB, TEST_REDIS_URL, describeApi, describeRedis, freePort } from '../test/harness';
import { freshDatabase, startServer, waitForHealth, type FreshDatabase } from '../test/processes';
import { createKnex, databaseTarget } from './db/knex';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { buildRuntime } from './bootstrap';
import { migrationSource } from '../../db/migrations/index';

/**
 * A production process that may be one of several (a shared database, bucket or Redis) refuses
 * to start with a generated JWT secret or with the e-mail outbox folder, and starts with both set.
 */
const suite = TEST_DB === 'mysql' ? describeApi : describeRedis;
suite(`NODE_ENV=production with ${TEST_DB === 'mysql' ? 'a MySQL database' : 'REDIS_URL'}`, () => {
  let dir: string;
  let db: FreshDatabase | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    db = await freshDatabase('photos-deploy-');
    dir = db.dir;
    const shared: Record<string, string> = {};
    if (TEST_DB !== 'mysql') shared.REDIS_URL = TEST_REDIS_URL;
    const port = await freePort();
    env = {
      NODE_ENV: 'production',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: db.databaseUrl,
      DATA_DIR: dir,
      STORAGE_DIR: path.join(dir, 'storage'),
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      // Production refuses to start without real PayGate credentials (production.api.test.ts).
      PAYGATE_ID: '1000000001',
      PAYGATE_SECRET: randomBytes(12).toString('hex'),
      ...shared,
    };
  });
  afterAll(() => db?.drop());

  it('refuses to start without JWT_SECRET or SMTP_URL, and starts with both', async () => {
    const noSecret = await startServer({ ...env, SMTP_URL: 'smtp://127.0.0.1:2525' }).exited;
    expect(noSecret.code).toBe(1);
    expect(noSecret.output).toContain('Refusing to start: JWT_SECRET is required');
    await expect(fs.access(path.join(dir, 'jwt-secret'))).rejects.toThrow();

    const noSmtp = await startServer({ ...env, JWT_SECRET: randomBytes(32).toString('base64url') }).exited;
    expect(noSmtp.code).toBe(1);
    expect(noSmtp.output).toContain('Refusing to start: SMTP_URL is required');

    const server = startServer({ ...env, JWT_SECRET: randomBytes(32).toString('base64url'), SMTP_URL: 'smtp://127.0.0.1:2525' });
    try {
      const health = await waitForHealth(env.PUBLIC_URL!, server.exited);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok', database: 'ok', storage: 'ok', redis: TEST_DB === 'mysql' ? 'not configured' : 'ok' });
    } finally {
      server.child.kill('SIGTERM');
    }
    expect((await server.exited).code).toBe(0);
    // Three real starts from the TypeScript sources, each compiling the whole server through tsx
    // (about 8 s apiece on a busy 2-core machine): more than the default 30 s of one test.
  }, 120_000);
});

const startConfig = (databaseUrl: string, dir: string, n: number) =>
  loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: path.join(dir, `p${n}`), STORAGE_DIR: path.join(dir, 'storage'), JWT_SECRET: 'k'.repeat(43), LOG_LEVEL: 'silent' }, dir);

/**
 * Replicas starting at the same moment on an empty database: one migrates, the others wait for it.
 * Migrating a fresh database takes a start's time, like the suites' own setup (hookTimeout).
 */
describeApi('processes starting together on an empty database', () => {
  it('all come up, and every migration ran exactly once', async () => {
    const db = await freshDatabase();
    try {
      const started = await Promise.allSettled([1, 2, 3].map((n) => buildRuntime(startConfig(db.databaseUrl, db.dir, n), createLogger('silent'))));
      const runtimes = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      try {
        expect(started.filter((result) => result.status === 'rejected')).toEqual([]);
        const applied = await runtimes[0]!.knex('knex_migrations').select('name');
        const names = applied.map((row: { name: string }) => row.name);
        expect(new Set(names).size).toBe(names.length);
        const [, pending] = await runtimes[1]!.knex.migrate.list({ migrationSource });
        expect(pending).toHaveLength(0);
        expect(names.length).toBeGreaterThan(10);
      } finally {
        await Promise.all(runtimes.map((runtime) => runtime.close()));
      }
    } finally {
      await db.drop();
    }
  }, 120_000);

  it('comes up after two earlier starts both wrote the migration lock row', async () => {
    const db = await freshDatabase();
    try {
      // What two processes creating knex's tables at the same moment can leave: two unlocked rows,
      // after which knex never takes its lock (its update must touch exactly one row).
      const knex = createKnex(databaseTarget(db.databaseUrl));
      try {
        await knex.migrate.list({ migrationSource });
        await knex('knex_migrations_lock').insert({ is_locked: 0 });
        expect(await knex('knex_migrations_lock').select('is_locked')).toEqual([{ is_locked: 0 }, { is_locked: 0 }]);
      } finally {
        await knex.destroy();
      }
      const runtime = await buildRuntime(startConfig(db.databaseUrl, db.dir, 1), createLogger('silent'));
      try {
        const [, pending] = await runtime.knex.migrate.list({ migrationSource });
        expect(pending).toHaveLength(0);
        expect(await runtime.knex('knex_migrations_lock').select('is_locked')).toEqual([{ is_locked: 0 }]);
      } finally {
        await runtime.close();
      }
    } finally {
      await db.drop();
    }
  }, 120_000);
});
