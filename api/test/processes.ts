import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { MYSQL_SERVER_URL, TEST_DB, freePort } from './harness';
import { createKnex, createMysqlDatabase, databaseTarget, dropMysqlDatabase } from '../src/db/knex';
import { migrate } from '../src/db/migrate';
import { createLogger } from '../src/logger';

/** The real server process and fresh databases, for suites that test how the server starts. */

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface Run {
  code: number | null;
  output: string;
}

/**
 * The real server process (`npm start` without the build step) with this environment: from the
 * TypeScript sources through tsx, or `compiled`, as `npm start` and the image run it, from dist/.
 */
export function startServer(env: Record<string, string>, options: { compiled?: boolean } = {}) {
  const args = options.compiled ? ['--enable-source-maps', 'dist/server.js'] : ['--import', 'tsx', 'api/src/server.ts'];
  const child = spawn(process.execPath, args, {
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

export async function waitForHealth(url: string, exited: Promise<Run>): Promise<Response> {
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

/** A database made for one suite or test, and the folder beside it. */
export interface FreshDatabase {
  dir: string;
  databaseUrl: string;
  /** Drops the MariaDB database (if any) and removes the folder. */
  drop(): Promise<void>;
}

/** An empty database of the suite's kind (its own SQLite file or MariaDB database) and a folder. */
export async function freshDatabase(prefix = 'photos-start-'): Promise<FreshDatabase> {
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


/** A fresh database (see freshDatabase) with every migration run, and this process's connection to it. */
export async function migratedDatabase(prefix: string): Promise<{ db: FreshDatabase; knex: Knex }> {
  const db = await freshDatabase(prefix);
  const knex = createKnex(databaseTarget(db.databaseUrl));
  await migrate(knex, createLogger('silent'));
  return { db, knex };
}

export type ServerProcess = ReturnType<typeof startServer>;

/**
 * Live server processes sending one database's outbox (the multi-process suites): `start` runs one
 * on its own free port and data folder (the storage shared) with the test settings, a 3 s lease and
 * a 200 ms poll, plus `env` (the relay or SMS centre), and waits until it answers (its `url` beside the process); `killAll` kills
 * those still running (for afterAll).
 */
export function outboxServers(db: () => FreshDatabase) {
  const children: ServerProcess[] = [];
  return {
    async start(secret: string, env: Record<string, string>): Promise<ServerProcess & { url: string }> {
      const { dir, databaseUrl } = db();
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const server = startServer({
        NODE_ENV: 'test',
        PORT: String(port),
        PUBLIC_URL: url,
        DATABASE_URL: databaseUrl,
        DATA_DIR: path.join(dir, `data-${port}`),
        STORAGE_DIR: path.join(dir, 'storage'),
        JWT_SECRET: secret,
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        ...env,
        OUTBOX_LEASE_MS: '3000',
        OUTBOX_POLL_MS: '200',
      });
      children.push(server);
      await waitForHealth(url, server.exited);
      return { ...server, url };
    },
    killAll(): void {
      for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** The outbox rows whose `column` starts with `${prefix} `, counted by status. */
export async function outboxStatuses(knex: Knex, column: 'subject' | 'text', prefix: string): Promise<Record<string, number>> {
  const rows = (await knex('outbox_messages').where(column, 'like', `${prefix} %`).groupBy('status').select('status').count({ n: '*' })) as { status: string; n: number | string }[];
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
}
