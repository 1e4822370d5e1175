import type { Knex } from 'knex';

/**
 * Files to remove from storage (docs/images.md, "Deleting photos"): written in the same
 * transaction that deletes the photo rows, removed once storage confirms, retried by a background
 * job until then, so an erased child's photos never stay in storage because one removal failed.
 * - storage_key / mime_type: the photo's files (original and renditions);
 * - attempts / last_error: failed removals so far, and the last reason;
 * - next_attempt_at: when the job tries again (epoch ms).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('file_deletions', (t) => {
    t.increments('id').primary();
    t.string('storage_key', 64).notNullable();
    t.string('mime_type', 50).notNullable();
    t.integer('attempts').unsigned().notNullable().defaultTo(0);
    t.string('last_error', 500).nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('next_attempt_at').notNullable();
    t.index(['next_attempt_at'], 'file_deletions_due');
    t.index(['storage_key'], 'file_deletions_key');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('file_deletions');
}
