import type { Knex } from 'knex';

/**
 * Resolves when the database answers a real read. On SQLite `select 1` never touches the database
 * file, so a locked or missing file would pass it; reading knex's migration table does not.
 */
export async function pingDatabase(knex: Knex): Promise<void> {
  await knex('knex_migrations').first('id');
}
