import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DB, startTestServer, type TestServer } from '../../test/harness';
import { createLogger } from '../logger';
import { createKnex, databaseTarget } from './knex';
import { SQLITE_AUTOCHECKPOINT_PAGES, startSqliteCheckpointer } from './sqlite-checkpoint';

/**
 * SQLite's checkpoints on a worker thread (docs/operations.md, "SQLite's checkpoints"): the serving
 * connection's own is off while the worker runs, the WAL stays bounded by the worker's checkpoints,
 * a WAL past the limit is caught up with by the serving connection, the worker stops on close and never keeps a process alive, and
 * two processes on one file checkpoint side by side.
 */
const suite = TEST_DB === 'sqlite' ? describe : describe.skip;
const logger = createLogger('silent');
const PAGE = 4096;

const walBytes = (file: string): number => (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0);
const autocheckpoint = async (knex: Knex): Promise<number> => Number(((await knex.raw('PRAGMA wal_autocheckpoint')) as { wal_autocheckpoint: number }[])[0]?.wal_autocheckpoint);

/** Writes about `pages` pages of new rows, in one transaction (a commit that never checkpoints when the automatic one is off). */
async function writePages(knex: Knex, pages: number): Promise<void> {
  await knex.transaction(async (trx) => {
    for (let i = 0; i < pages; i++) await trx('scratch').insert({ body: 'x'.repeat(PAGE - 200) });
  });
}

suite('SQLite checkpoints on a worker thread', () => {
  let dir: string;
  let file: string;
  let knex: Knex;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'photos-checkpoint-'));
    file = path.join(dir, 'db.sqlite');
    knex = createKnex(databaseTarget(`sqlite:${file}`));
    await knex.schema.createTable('scratch', (table) => {
      table.increments('id');
      table.text('body');
    });
  });
  afterAll(async () => {
    await knex.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('turns the automatic checkpoint off while it runs and keeps the WAL at what is written between two checkpoints', async () => {
    expect(await autocheckpoint(knex)).toBe(SQLITE_AUTOCHECKPOINT_PAGES);
    const checkpointer = await startSqliteCheckpointer({ knex, file, logger, everyMs: 0, walLimitPages: 10_000 });
    try {
      expect(await autocheckpoint(knex)).toBe(0);
      let most = 0;
      // 4,000 pages in all, 200 between checkpoints: without them the WAL would hold all 4,000.
      for (let round = 0; round < 20; round++) {
        await writePages(knex, 200);
        most = Math.max(most, walBytes(file));
        const result = await checkpointer.checkpoint();
        expect(result.busy).toBe(false);
        expect(result.checkpointedPages).toBe(result.walPages);
      }
      expect(most).toBeGreaterThan(150 * PAGE);
      expect(most).toBeLessThan(400 * PAGE);
      expect(checkpointer.stats().runs).toBeGreaterThanOrEqual(21);
    } finally {
      await checkpointer.close();
    }
    expect(await autocheckpoint(knex)).toBe(SQLITE_AUTOCHECKPOINT_PAGES);
    await expect(checkpointer.checkpoint()).rejects.toThrow('stopped');
  });

  it('catches up on the serving connection when the WAL is past its limit, and the WAL starts over', async () => {
    const checkpointer = await startSqliteCheckpointer({ knex, file, logger, everyMs: 0, walLimitPages: 300 });
    const reader = new Database(file, { readonly: true });
    try {
      // A reader in the middle of a read keeps its snapshot: the checkpoint cannot copy past it, nor the WAL start over.
      const rows = reader.prepare('SELECT id FROM scratch').iterate();
      rows.next();
      await writePages(knex, 100);
      for (let round = 0; round < 5; round++) {
        await writePages(knex, 100);
        await checkpointer.checkpoint();
      }
      expect(walBytes(file)).toBeGreaterThan(500 * PAGE);
      rows.return?.();
      const result = await checkpointer.checkpoint();
      expect(result).toMatchObject({ caughtUp: true, busy: false });
      expect(result.checkpointedPages).toBe(result.walPages);
      expect(checkpointer.stats().catchUps).toBeGreaterThanOrEqual(1);
      // Everything copied: the next commit writes from the WAL's start.
      await writePages(knex, 10);
      expect((await checkpointer.checkpoint()).walPages).toBeLessThan(20);
    } finally {
      reader.close();
      await checkpointer.close();
    }
  });

  it('never makes a transaction that reads and then writes fail, however often it checkpoints and catches up', async () => {
    const checkpointer = await startSqliteCheckpointer({ knex, file, logger, everyMs: 2, walLimitPages: 20 });
    try {
      for (let i = 0; i < 300; i++) {
        // As a checkout's transaction: a read first (knex begins it deferred), then the writes.
        await knex.transaction(async (trx) => {
          await trx('scratch').count({ n: '*' });
          await trx('scratch').insert({ body: 'x'.repeat(PAGE - 200) });
          await new Promise((resolve) => setTimeout(resolve, 1));
          await trx('scratch').insert({ body: 'y'.repeat(PAGE - 200) });
        });
      }
      expect(checkpointer.stats().runs).toBeGreaterThan(10);
      expect(checkpointer.stats().catchUps).toBeGreaterThan(0);
    } finally {
      await checkpointer.close();
    }
  });

  it('refuses an in-memory database', async () => {
    await expect(startSqliteCheckpointer({ knex, file: ':memory:', logger })).rejects.toThrow('in-memory');
  });

  it('never keeps a process alive', async () => {
    // A process that starts the worker and lets go of its database without closing the checkpointer still ends by itself.
    const script = path.join(dir, 'left-open.mts');
    fs.writeFileSync(
      script,
      [
        `import { createKnex, databaseTarget } from ${JSON.stringify(path.resolve('api/src/db/knex.ts'))};`,
        `import { startSqliteCheckpointer } from ${JSON.stringify(path.resolve('api/src/db/sqlite-checkpoint.ts'))};`,
        `import { createLogger } from ${JSON.stringify(path.resolve('api/src/logger.ts'))};`,
        `const knex = createKnex(databaseTarget(${JSON.stringify(`sqlite:${path.join(dir, 'other.sqlite')}`)}));`,
        `await knex.raw('CREATE TABLE t (x)');`,
        `const checkpointer = await startSqliteCheckpointer({ knex, file: ${JSON.stringify(path.join(dir, 'other.sqlite'))}, logger: createLogger('silent'), everyMs: 20 });`,
        `await new Promise((resolve) => setTimeout(resolve, 200));`,
        `console.log('runs', checkpointer.stats().runs);`,
        `await knex.destroy();`,
      ].join('\n'),
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(null);
      }, 30_000);
      child.on('exit', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    expect(code).toBe(0);
    // The timer ran the worker meanwhile: more than the first checkpoint at start.
    expect(Number(/runs (\d+)/.exec(out)?.[1])).toBeGreaterThan(1);
  });
});

suite('SQLite checkpoints: two processes on one file', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await startTestServer();
    b = await startTestServer({}, { sharedWith: a });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('each process checkpoints from its own worker, side by side, and the file stays whole', async () => {
    const file = databaseTarget(a.config.databaseUrl).database;
    for (const server of [a, b]) {
      expect(server.runtime.checkpointer).not.toBeNull();
      expect(await autocheckpoint(server.runtime.knex)).toBe(0);
    }
    await a.runtime.knex.schema.createTable('scratch', (table) => {
      table.increments('id');
      table.text('body');
    });
    let most = 0;
    for (let round = 0; round < 10; round++) {
      // Both write (one after the other: in one test process a writer waiting on the other's lock would block the thread both run on), and both checkpoint at once.
      await writePages(a.runtime.knex, 100);
      await writePages(b.runtime.knex, 100);
      most = Math.max(most, walBytes(file));
      const results = await Promise.all([a.runtime.checkpointer?.checkpoint(), b.runtime.checkpointer?.checkpoint()]);
      // One of the two may find the other checkpointing (busy); together they copy the WAL.
      expect(results.some((result) => result && !result.busy)).toBe(true);
    }
    expect(most).toBeLessThan(600 * PAGE);
    const [{ n }] = (await b.runtime.knex('scratch').count({ n: '*' })) as [{ n: number }];
    expect(Number(n)).toBe(2000);
    const check = new Database(file, { readonly: true });
    try {
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      check.close();
    }
  });
});
