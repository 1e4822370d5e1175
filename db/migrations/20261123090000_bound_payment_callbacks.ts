import type { Knex } from 'knex';

/**
 * Callbacks are kept bounded: an accepted one stores at most a few KB of its body plus the full
 * body's size and SHA-256; a refused one (bad checksum: anyone can post those) keeps only size,
 * hash and reason in its own table, which is pruned to a fixed number of rows.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payment_callbacks', (t) => {
    t.integer('body_bytes').unsigned().nullable();
    t.string('body_sha256', 64).nullable();
  });
  await knex.schema.createTable('rejected_callbacks', (t) => {
    t.increments('id').primary();
    /** notify | return */
    t.string('kind', 16).notNullable();
    t.integer('body_bytes').unsigned().notNullable();
    t.string('body_sha256', 64).notNullable();
    t.string('reason', 60).notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rejected_callbacks');
  await knex.schema.alterTable('payment_callbacks', (t) => {
    t.dropColumn('body_sha256');
    t.dropColumn('body_bytes');
  });
}
