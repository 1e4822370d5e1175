import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MYSQL_SERVER_URL, TEST_DB, TEST_REDIS_URL, describeApi, describeRedis, freePort } from '../test/harness';
import { createKnex, createMysqlDatabase, databaseTarget, dropMysqlDatabase } from './db/knex';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { buildRuntime } from './bootstrap';
import { migrationSource } from '../../db/migrations/index';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Run {
  code: number | null;
  output: string;
}

/** The real server process (`npm start` without the PWA build step) with this environment. */
function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/src/server.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<Run>((resolve) => child.once('exit', (code) => resolve({ code, output })));
  return { child, exited, output: () => output };
}

async function waitForHealth(url: string, exited: Promise<Run>): Promise<Response> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (gone) throw new Error(`the server exited:\n${(await exited).output}`);
    try {
      return await fetch(`${url}/api/health`);
    } catch {
      if (Date.now() > deadline) throw new Error('the server did not answer within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

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
  });
});

/** A database made for one suite or test, and the folder beside it. */
interface FreshDatabase {
  dir: string;
  databaseUrl: string;
  /** Drops the MariaDB database (if any) and removes the folder. */
  drop(): Promise<void>;
}

/** An empty database of the suite's kind (its own SQLite file or MariaDB database) and a folder. */
async function freshDatabase(prefix = 'photos-start-'): Promise<FreshDatabase> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  let mysqlName: string | null = null;
  let databaseUrl = `sqlite:${path.join(dir, 'app.sqlite')}`;
  if (TEST_DB === 'mysql') {
    mysqlName = `t_${randomBytes(6).toString('hex')}`;
    await createMysqlDatabase(MYSQL_SERVER_URL, mysqlName);
    const url = new URL(MYSQL_SERVER_URL);
    url.pathname = `/${mysqlName}`;
    databaseUrl = url.toString();
  }
  return {
    dir,
    databaseUrl,
    async drop() {
      if (mysqlName) await dropMysqlDatabase(MYSQL_SERVER_URL, mysqlName);
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

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
