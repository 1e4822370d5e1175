import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Knex } from 'knex';
import type { Logger } from '../logger';

/**
 * SQLite's checkpoints off the event loop (docs/operations.md, "SQLite's checkpoints"). In WAL
 * mode every commit appends pages to the -wal file, and a checkpoint copies them back into the
 * database file. SQLite's own (automatic) checkpoint runs inside the commit that passes 1,000
 * pages, on the serving connection, so on the event loop: one checkout in a few hundred waited for
 * it, and every request behind that one with it. Here a worker thread with its own connection
 * checkpoints instead, every CHECKPOINT_EVERY_MS, and the serving connection's automatic
 * checkpoint is turned off while that worker runs.
 *
 * A PASSIVE checkpoint never waits and never blocks a writer: it copies what no reader still
 * needs, and once everything is copied the next commit starts the WAL over from its beginning, so
 * the file stays as large as what is written between two checkpoints. Under a steady stream of
 * commits it never quite finishes (it copies what was there when it started, and commits go on
 * meanwhile), so the WAL grows. Past WAL_LIMIT_PAGES the serving connection catches up once: a
 * PASSIVE checkpoint of its own, between two requests' queries (it waits for the pool's connection,
 * so no transaction is open), copies the little the worker has not, with no commit running beside
 * it, and the next commit starts the WAL over (its file cut back to that size,
 * journal_size_limit in db/knex.ts). Before it, the worker passes again (up to four times) while
 * commits keep coming in during its passes, each pass shorter, so the catch-up costs the event loop
 * only the last few hundred pages and one sync, once per WAL_LIMIT_PAGES written, instead of a
 * whole checkpoint every 1,000 pages.
 *
 * Not a RESTART from the worker: a RESTART takes the write lock, and a transaction of the server's
 * that has read and then writes (knex opens a deferred transaction) does not wait for a lock taken
 * after it began: it fails at once with SQLITE_BUSY (a 503). Should the worker fail, the serving
 * connection's automatic checkpoint is turned back on: the WAL stays bounded either way.
 */

/** How often the worker checkpoints. */
export const CHECKPOINT_EVERY_MS = 500;
/** The WAL past which the serving connection catches up once: 4,000 pages, 16 MB of 4 KB pages. */
export const WAL_LIMIT_PAGES = 4_000;
/** Pages written during a pass below which the worker stops passing again before a catch-up. */
const SETTLED_PAGES = 256;
/** SQLite's own automatic checkpoint, in pages: what the serving connection goes back to without the worker. */
export const SQLITE_AUTOCHECKPOINT_PAGES = 1_000;

/** One checkpoint's outcome, as SQLite reports it. */
export interface CheckpointResult {
  /** Another connection was checkpointing: this one left it to that. */
  busy: boolean;
  /** Pages in the WAL when it ended. */
  walPages: number;
  /** Pages of the WAL copied into the database file so far. */
  checkpointedPages: number;
  /** Whether the WAL was past the limit and the serving connection caught up (its own PASSIVE checkpoint). */
  caughtUp: boolean;
  /** How long the worker thread spent on it, in ms (none of it on the event loop). */
  ms: number;
}

export interface CheckpointStats {
  runs: number;
  /** Catch-ups of the serving connection, and its time in them (on the event loop), in ms. */
  catchUps: number;
  catchUpMs: number;
  busy: number;
  /** The worker's time in checkpoints, in ms. */
  workerMs: number;
  /** The most pages the WAL held at the end of a PASSIVE checkpoint. */
  mostWalPages: number;
}

export interface SqliteCheckpointer {
  /** Checkpoints now, on the worker (PASSIVE), and on the serving connection too if the WAL is still past `walLimitPages`. */
  checkpoint(): Promise<CheckpointResult>;
  stats(): CheckpointStats;
  /** Stops the timer and the worker (closing its connection) and turns the automatic checkpoint back on. */
  close(): Promise<void>;
}

type Request = { kind: 'checkpoint'; id: number } | { kind: 'stop' };
type Reply = { id: number; ok: true; result: CheckpointResult } | { id: number; ok: false; message: string };

/**
 * The worker's code, CommonJS run by `eval` so that the compiled dist/ needs no file of its own; it
 * loads better-sqlite3 from where the event loop's copy was resolved.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
function checkpoint(mode) {
  const [row] = db.pragma('wal_checkpoint(' + mode + ')');
  return row;
}
parentPort.on('message', (request) => {
  if (request.kind === 'stop') {
    db.close();
    parentPort.close();
    return;
  }
  const started = performance.now();
  try {
    let row = checkpoint('PASSIVE');
    // Past the limit, passes again while commits came in during the last one, so the serving
    // connection's catch-up is left only what came in during the last, shortest pass.
    for (let pass = 0; pass < 4 && row.log > workerData.limitPages; pass++) {
      const before = row.log;
      row = checkpoint('PASSIVE');
      if (row.log - before < workerData.settledPages) break;
    }
    parentPort.postMessage({ id: request.id, ok: true, result: { busy: row.busy === 1, walPages: Math.max(0, row.log), checkpointedPages: Math.max(0, row.checkpointed), caughtUp: false, ms: performance.now() - started } });
  } catch (err) {
    parentPort.postMessage({ id: request.id, ok: false, message: err && err.message ? err.message : String(err) });
  }
});
`;

interface PoolClient {
  acquireConnection(): Promise<{ pragma(sql: string): unknown }>;
  releaseConnection(connection: unknown): Promise<unknown>;
}

/**
 * The serving connection's own PASSIVE checkpoint, run on its raw connection (a PRAGMA through
 * knex would empty the statement cache, db/knex.ts). Taking the connection from the pool waits for
 * any transaction under way, so no commit of this process runs beside it.
 */
async function catchUp(knex: Knex): Promise<{ busy: number; log: number; checkpointed: number }> {
  const client = knex.client as PoolClient;
  const connection = await client.acquireConnection();
  try {
    return (connection.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[])[0] ?? { busy: 0, log: 0, checkpointed: 0 };
  } finally {
    await client.releaseConnection(connection);
  }
}

/** Sets the serving connection's automatic checkpoint (0: off). */
async function setAutocheckpoint(knex: Knex, pages: number): Promise<void> {
  await knex.raw(`PRAGMA wal_autocheckpoint = ${Math.max(0, Math.floor(pages))}`);
}

/**
 * Starts checkpointing the SQLite file `file` (never `:memory:`) on a worker thread, every
 * `everyMs` (0: only when checkpoint() is called). The worker never keeps the process alive; close()
 * it before the knex it serves is destroyed.
 */
export async function startSqliteCheckpointer(options: {
  knex: Knex;
  file: string;
  logger: Logger;
  everyMs?: number;
  walLimitPages?: number;
}): Promise<SqliteCheckpointer> {
  const { knex, file, logger } = options;
  if (file === ':memory:' || file === '') throw new Error('an in-memory database has no WAL to checkpoint');
  const everyMs = options.everyMs ?? CHECKPOINT_EVERY_MS;
  const limitPages = options.walLimitPages ?? WAL_LIMIT_PAGES;
  const stats: CheckpointStats = { runs: 0, catchUps: 0, catchUpMs: 0, busy: 0, workerMs: 0, mostWalPages: 0 };
  const waiting = new Map<number, { resolve: (result: CheckpointResult) => void; reject: (err: Error) => void }>();
  let nextId = 1;
  let closed = false;
  let failed = false;

  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, driver: createRequire(import.meta.url).resolve('better-sqlite3'), limitPages, settledPages: SETTLED_PAGES },
  });
  worker.unref();

  /** The worker is gone before close(): SQLite checkpoints in the commits again. */
  const lost = (err: Error) => {
    if (failed || closed) return;
    failed = true;
    clearInterval(timer);
    for (const [, job] of waiting) job.reject(err);
    waiting.clear();
    logger.warn({ err }, "SQLite's checkpoint worker stopped: the serving connection checkpoints in its commits again");
    setAutocheckpoint(knex, SQLITE_AUTOCHECKPOINT_PAGES).catch((error: unknown) => logger.warn({ err: error }, 'turning the automatic checkpoint back on failed'));
  };
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('error', lost);
  worker.on('exit', (code) => lost(new Error(`the checkpoint worker exited (code ${code})`)));
  worker.on('message', (reply: Reply) => {
    const job = waiting.get(reply.id);
    if (!job) return;
    waiting.delete(reply.id);
    if (waiting.size === 0) worker.unref();
    if (reply.ok) job.resolve(reply.result);
    else job.reject(new Error(reply.message));
  });

  const checkpoint = (): Promise<CheckpointResult> => {
    if (closed || failed) return Promise.reject(new Error('the checkpoint worker is stopped'));
    const id = nextId++;
    // Held while a checkpoint is under way, so its answer arrives; idle, the worker keeps nothing alive.
    worker.ref();
    return new Promise<CheckpointResult>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ kind: 'checkpoint', id } satisfies Request);
    }).then(async (result) => {
      stats.runs += 1;
      stats.workerMs += result.ms;
      if (result.busy) stats.busy += 1;
      stats.mostWalPages = Math.max(stats.mostWalPages, result.walPages);
      if (result.walPages <= limitPages || closed) return result;
      const started = performance.now();
      const row = await catchUp(knex);
      stats.catchUps += 1;
      stats.catchUpMs += performance.now() - started;
      return { ...result, caughtUp: true, busy: row.busy === 1, walPages: Math.max(0, row.log), checkpointedPages: Math.max(0, row.checkpointed) };
    });
  };

  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    checkpoint()
      .catch((err: unknown) => logger.warn({ err }, 'SQLite checkpoint failed'))
      .finally(() => (running = false));
  }, everyMs > 0 ? everyMs : 2 ** 31 - 1);
  timer.unref();

  // Only once the worker has answered is the serving connection's own checkpoint turned off.
  try {
    await checkpoint();
    await setAutocheckpoint(knex, 0);
  } catch (err) {
    clearInterval(timer);
    closed = true;
    await worker.terminate();
    throw err;
  }

  return {
    checkpoint,
    stats: () => ({ ...stats }),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      if (!failed) {
        worker.ref();
        worker.postMessage({ kind: 'stop' } satisfies Request);
        // A checkpoint under way ends first (it cannot be cut inside SQLite); a worker that does not end goes anyway.
        const ended = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000).unref())]);
        if (!ended) await worker.terminate();
        await setAutocheckpoint(knex, SQLITE_AUTOCHECKPOINT_PAGES).catch(() => undefined);
      }
    },
  };
}
