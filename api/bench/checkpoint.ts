/**
 * SQLite's checkpoints, measured on the event loop (docs/operations.md, "SQLite's checkpoints"):
 * WRITES commits of a checkout's size, RATE a second (a customer, an order with four lines, a payment, each row
 * about as wide as the real ones) through the server's own connection settings, three ways, back
 * to back on fresh files, in alternating rounds:
 *
 * - automatic: SQLite's own checkpoint inside the commit that passes 1,000 pages (before);
 * - none: no checkpoint at all (wal_autocheckpoint = 0, nothing else): the writes' own cost;
 * - worker: the checkpoint worker of api/src/db/sqlite-checkpoint.ts (after).
 *
 * Prints, for each, the event loop's time in the commits and in the worker's catch-ups (in all and
 * per commit, p50/p99/max of one commit), that time less the same writes' without checkpoints (the event loop's time in
 * checkpoints), the worker's own time, and the largest the WAL grew. `npm run bench:checkpoint`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { createKnex, databaseTarget } from '../src/db/knex';
import { createLogger } from '../src/logger';
import { startSqliteCheckpointer, type SqliteCheckpointer } from '../src/db/sqlite-checkpoint';

const WRITES = Number(process.env.BENCH_WRITES ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/** Commits a second: about what the server writes when 50 parents check out as fast as it answers. */
const RATE = Number(process.env.BENCH_RATE ?? 200);
type Mode = 'automatic' | 'none' | 'worker';

interface Result {
  commitMs: number[];
  mostWalBytes: number;
  workerMs: number;
  /** The serving connection's catch-ups (worker mode): event-loop time outside the commits. */
  catchUpMs: number;
  catchUps: number;
}

const pad = (n: number) => 'x'.repeat(n);

async function run(mode: Mode, dir: string): Promise<Result> {
  const file = path.join(dir, `${mode}-${Date.now()}.sqlite`);
  const knex: Knex = createKnex(databaseTarget(`sqlite:${file}`));
  let checkpointer: SqliteCheckpointer | null = null;
  try {
    await knex.schema.createTable('customers', (t) => {
      t.increments('id');
      t.string('email').unique();
      t.text('body');
    });
    await knex.schema.createTable('orders', (t) => {
      t.string('id').primary();
      t.integer('customer_id').index();
      t.text('body');
    });
    await knex.schema.createTable('order_items', (t) => {
      t.increments('id');
      t.string('order_id').index();
      t.text('body');
    });
    await knex.schema.createTable('payments', (t) => {
      t.increments('id');
      t.string('order_id').index();
      t.text('body');
    });
    if (mode === 'none') await knex.raw('PRAGMA wal_autocheckpoint = 0');
    if (mode === 'worker') checkpointer = await startSqliteCheckpointer({ knex, file, logger: createLogger('silent') });
    const commitMs: number[] = [];
    let mostWalBytes = 0;
    const wal = `${file}-wal`;
    const begun = performance.now();
    for (let i = 0; i < WRITES; i++) {
      const due = begun + (i * 1000) / RATE;
      if (performance.now() < due) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
      const started = performance.now();
      await knex.transaction(async (trx) => {
        const [customerId] = await trx('customers').insert({ email: `parent-${i}@bench.example`, body: pad(300) });
        const orderId = `ORD-${i}`;
        await trx('orders').insert({ id: orderId, customer_id: customerId, body: pad(600) });
        await trx('order_items').insert(Array.from({ length: 4 }, () => ({ order_id: orderId, body: pad(400) })));
      });
      await knex('payments').insert({ order_id: `ORD-${i}`, body: pad(300) });
      commitMs.push(performance.now() - started);
      if (i % 20 === 0) mostWalBytes = Math.max(mostWalBytes, fs.existsSync(wal) ? fs.statSync(wal).size : 0);
    }
    mostWalBytes = Math.max(mostWalBytes, fs.existsSync(wal) ? fs.statSync(wal).size : 0);
    const stats = checkpointer?.stats();
    return { commitMs, mostWalBytes, workerMs: stats?.workerMs ?? 0, catchUpMs: stats?.catchUpMs ?? 0, catchUps: stats?.catchUps ?? 0 };
  } finally {
    await checkpointer?.close();
    await knex.destroy();
  }
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-checkpoint-'));
  const results: Record<Mode, Result[]> = { automatic: [], none: [], worker: [] };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of ['automatic', 'none', 'worker'] as const) results[mode].push(await run(mode, dir));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  // The event loop's time: the commits, and the worker mode's catch-ups between them.
  const total = (mode: Mode) => sum(results[mode].map((r) => sum(r.commitMs) + r.catchUpMs)) / results[mode].length;
  const base = total('none');
  console.log(`SQLite checkpoints: ${WRITES} checkout-sized commits at ${RATE} a second, ${ROUNDS} rounds each, alternating`);
  for (const mode of ['automatic', 'none', 'worker'] as const) {
    const all = results[mode].flatMap((r) => r.commitMs).sort((a, b) => a - b);
    const ms = total(mode);
    console.log(
      `  ${mode.padEnd(9)}  event loop ${ms.toFixed(0).padStart(5)} ms a round (catch-ups ${(sum(results[mode].map((r) => r.catchUpMs)) / ROUNDS).toFixed(0)} ms, ${sum(results[mode].map((r) => r.catchUps)) / ROUNDS} of them) (${(ms / WRITES).toFixed(3)} ms a commit; p50 ${quantile(all, 0.5).toFixed(2)}, p99 ${quantile(all, 0.99).toFixed(2)}, max ${all[all.length - 1]?.toFixed(1)} ms)` +
        `   in checkpoints ${(ms - base).toFixed(0).padStart(5)} ms a round   worker ${(sum(results[mode].map((r) => r.workerMs)) / ROUNDS).toFixed(0)} ms   WAL at most ${(Math.max(...results[mode].map((r) => r.mostWalBytes)) / 1024 / 1024).toFixed(1)} MB`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
