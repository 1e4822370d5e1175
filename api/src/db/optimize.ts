import type { Knex } from 'knex';
import type { Dialect } from './knex';

/**
 * The query planner's statistics kept fresh (docs/operations.md, "The planner's statistics"): at
 * start and once a day. On SQLite, `PRAGMA optimize` analyses only the tables whose row counts
 * changed enough since they were last analysed, each read at most ANALYSIS_LIMIT rows an index, so
 * it costs milliseconds even on a large file. On MySQL/MariaDB, `ANALYZE TABLE` of the tables a
 * checkout and the parents' pages read and write: InnoDB samples a few pages an index (its
 * persistent statistics), it neither locks nor copies the table.
 */

/** Rows an index SQLite's ANALYZE reads at most: an estimate, as SQLite recommends with optimize. */
const ANALYSIS_LIMIT = 400;

/** The tables that grow in a season and that the hot queries join: orders and what hangs off them. */
export const HOT_TABLES = ['orders', 'order_items', 'order_packages', 'payments', 'customers', 'sales_lines', 'outbox_messages', 'photos', 'students'] as const;

export interface OptimizeResult {
  /** SQLite: the tables `PRAGMA optimize` analysed (0 when none needed it); MySQL: the tables analysed. */
  tables: number;
  ms: number;
}

/**
 * Refreshes the planner's statistics. `atStart` on SQLite also looks at tables never queried on
 * this connection yet (0x10000), as SQLite recommends for a long-lived connection when it opens.
 */
export async function optimizeDatabase(knex: Knex, dialect: Dialect, options: { atStart?: boolean } = {}): Promise<OptimizeResult> {
  const started = performance.now();
  if (dialect === 'sqlite') {
    await knex.raw(`PRAGMA analysis_limit = ${ANALYSIS_LIMIT}`);
    const all = options.atStart ? 0x10000 : 0;
    // 0x01 only lists the ANALYZE statements it would run (0x02: the tables that would benefit), then they are run.
    const planned = (await knex.raw(`PRAGMA optimize(${all | 0x03})`)) as unknown[];
    await knex.raw(`PRAGMA optimize(${all | 0xfffe})`);
    return { tables: planned.length, ms: performance.now() - started };
  }
  const existing = new Set(
    ((await knex.raw('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()')) as [{ name: string }[]])[0].map((row) => row.name),
  );
  const tables = HOT_TABLES.filter((table) => existing.has(table));
  if (tables.length > 0) await knex.raw(`ANALYZE TABLE ${tables.map((table) => `\`${table}\``).join(', ')}`);
  return { tables: tables.length, ms: performance.now() - started };
}
