import type { Knex } from 'knex';

/**
 * A school whose families use their child's code needs no school password (docs/access.md,
 * "School password"): schools.password_hash may be null.
 *
 * On SQLite a column change rebuilds the table (copy, drop, rename). Dropping `schools` with
 * foreign keys on would cascade into its classes, and the pragma that turns them off is ignored
 * inside a transaction, so this migration runs outside one: knex then turns the checks off for the
 * rebuild and checks every key afterwards.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('schools', (t) => {
    t.string('password_hash', 255).nullable().alter();
  });
}

export async function down(knex: Knex): Promise<void> {
  // A school without a password gets one nobody knows (not an argon2 hash, so nothing matches it).
  await knex('schools').whereNull('password_hash').update({ password_hash: '!' });
  await knex.schema.alterTable('schools', (t) => {
    t.string('password_hash', 255).notNullable().alter();
  });
}
