import type { Knex } from 'knex';

/**
 * A family's gallery grant names the credential that opened it (docs/access.md, "Grants end"):
 * schools.grant_epoch and albums.grant_epoch count the password changes (and, for a school, the
 * switches to student codes) that cut off every device unlocked before. Existing rows start at 0.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('schools', (t) => {
    t.integer('grant_epoch').notNullable().defaultTo(0);
  });
  await knex.schema.alterTable('albums', (t) => {
    t.integer('grant_epoch').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('albums', (t) => {
    t.dropColumn('grant_epoch');
  });
  await knex.schema.alterTable('schools', (t) => {
    t.dropColumn('grant_epoch');
  });
}
