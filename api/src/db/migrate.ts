import type { Knex } from 'knex';
import type { Logger } from '../logger';
import { migrationSource } from '../../../db/migrations/index';
import { isConcurrentMigration } from './errors';

/** How long a starting process waits for another one that is migrating the same database. */
const MIGRATION_WAIT_MS = 120_000;

/** Whether another process holds knex's migration lock (false while its table does not exist yet). */
async function migrationLockHeld(knex: Knex): Promise<boolean> {
  try {
    const row = await knex('knex_migrations_lock').first('is_locked');
    return Number(row?.is_locked) === 1;
  } catch {
    return false;
  }
}

/**
 * Two processes creating knex's tables at the same moment can both insert the lock row; knex then
 * never takes its lock again (its update must touch exactly one row). While nobody holds it, the
 * extra rows are dropped.
 */
async function repairMigrationLock(knex: Knex): Promise<void> {
  const rows: { index: number; is_locked: number }[] = await knex('knex_migrations_lock').select('index', 'is_locked').catch(() => []);
  if (rows.length < 2 || rows.some((row) => Number(row.is_locked) !== 0)) return;
  const keep = Math.min(...rows.map((row) => Number(row.index)));
  await knex('knex_migrations_lock').whereNot('index', keep).where('is_locked', 0).delete();
}

/**
 * Runs the pending migrations. Several processes starting together on one database: one takes
 * knex's migration lock (or creates its tables) and the others wait for it and then find nothing
 * left to do. A held lock is waited for before asking knex, which would print a warning per try.
 */
export async function migrate(knex: Knex, logger?: Logger, waitMs = MIGRATION_WAIT_MS): Promise<void> {
  const deadline = Date.now() + waitMs;
  let told = false;
  const waitOrGiveUp = async (cause: unknown) => {
    if (Date.now() > deadline) {
      throw new Error(
        `The database stayed locked for migrations for ${waitMs / 1000} s. If no other process is migrating it, one stopped halfway: clear the lock with UPDATE knex_migrations_lock SET is_locked = 0`,
        { cause },
      );
    }
    if (!told) logger?.info('another process is migrating the database; waiting for it');
    told = true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  };
  for (;;) {
    if (await migrationLockHeld(knex)) {
      await waitOrGiveUp(null);
      continue;
    }
    try {
      await knex.migrate.latest({ migrationSource });
      return;
    } catch (err) {
      if (!isConcurrentMigration(err)) throw err;
      if ((err as { name?: unknown }).name === 'MigrationLocked') await repairMigrationLock(knex);
      await waitOrGiveUp(err);
    }
  }
}
