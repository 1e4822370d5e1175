import type { Knex } from 'knex';

/**
 * Archived classes (docs/access.md, "Archived classes"): albums.archived_at (epoch ms), null for a
 * class that is not archived. An archived class is hidden from families everywhere, as a draft is,
 * while its photos stay for the orders that need them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('albums', (t) => {
    t.bigInteger('archived_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('albums', (t) => {
    t.dropColumn('archived_at');
  });
}
