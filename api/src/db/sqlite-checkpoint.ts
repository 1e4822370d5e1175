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
 * the file stays as large as what is written between two checkpoints. Should a reader keep it from
 * finishing for long, or the writes come so fast that a checkpoint never catches up with them,
 * and the WAL pass WAL_LIMIT_PAGES, a RESTART checkpoint brings it back: it copies the rest and has
 * the next commit start the WAL over (its file is cut back to that size then, journal_size_limit
 * in db/knex.ts). A RESTART holds writers off while it runs, so it waits at most BUSY_MS for a
 * writer or reader and is tried again at the next turn if it could not. Should the worker fail, the
 * serving connection's automatic checkpoint is turned back on: the WAL stays bounded either way.
 */

/** How often the worker checkpoints. */
export const CHECKPOINT_EVERY_MS = 500;
/** The WAL past which the worker starts it over (RESTART): 4,000 pages, 16 MB of 4 KB pages. */
export const WAL_LIMIT_PAGES = 4_000;
/** How long a RESTART waits for a writer or reader before it gives up until the next turn. */
const BUSY_MS = 50;
/** SQLite's own automatic checkpoint, in pages: what the serving connection goes back to without the worker. */
export const SQLITE_AUTOCHECKPOINT_PAGES = 1_000;

/** One checkpoint's outcome, as SQLite reports it. */
export interface CheckpointResult {
  /** Another connection held it off (a writer or reader for RESTART, another checkpoint for PASSIVE). */
  busy: boolean;
  /** Pages in the WAL when it ended (0 after a RESTART that finished). */
  walPages: number;
  /** Pages of the WAL copied into the database file so far. */
  checkpointedPages: number;
  /** Whether the WAL was past the limit and a RESTART was run. */
  restarted: boolean;
  /** How long the worker thread spent on it, in ms (none of it on the event loop). */
  ms: number;
}

export interface CheckpointStats {
  runs: number;
  restarts: number;
  busy: number;
  /** The worker's time in checkpoints, in ms. */
  workerMs: number;
  /** The most pages the WAL held at the end of a PASSIVE checkpoint. */
  mostWalPages: number;
}

export interface SqliteCheckpointer {
  /** Checkpoints now, on the worker: PASSIVE, then RESTART if the WAL is still past `walLimitPages`. */
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
db.pragma('busy_timeout = ' + workerData.busyMs);
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
    let restarted = false;
    if (row.log > workerData.limitPages) {
      row = checkpoint('RESTART');
      restarted = true;
    }
    parentPort.postMessage({ id: request.id, ok: true, result: { busy: row.busy === 1, walPages: Math.max(0, row.log), checkpointedPages: Math.max(0, row.checkpointed), restarted, ms: performance.now() - started } });
  } catch (err) {
    parentPort.postMessage({ id: request.id, ok: false, message: err && err.message ? err.message : String(err) });
  }
});
`;

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
  const stats: CheckpointStats = { runs: 0, restarts: 0, busy: 0, workerMs: 0, mostWalPages: 0 };
  const waiting = new Map<number, { resolve: (result: CheckpointResult) => void; reject: (err: Error) => void }>();
  let nextId = 1;
  let closed = false;
  let failed = false;

  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, driver: createRequire(import.meta.url).resolve('better-sqlite3'), limitPages: options.walLimitPages ?? WAL_LIMIT_PAGES, busyMs: BUSY_MS },
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
    }).then((result) => {
      stats.runs += 1;
      stats.workerMs += result.ms;
      if (result.restarted) stats.restarts += 1;
      if (result.busy) stats.busy += 1;
      if (!result.restarted) stats.mostWalPages = Math.max(stats.mostWalPages, result.walPages);
      return result;
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
