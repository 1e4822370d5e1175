import type { Knex } from 'knex';

/** Staff password reset links (docs/accounts.md, "Staff passwords"): as the customers' table, for staff accounts. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('staff_reset_tokens', (t) => {
    t.increments('id').primary();
    t.integer('staff_id').unsigned().notNullable().references('id').inTable('staff').onDelete('CASCADE');
    /** SHA-256 of the token; the token itself is never stored. */
    t.string('token_hash', 64).notNullable().unique();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('used_at').nullable();
    t.bigInteger('created_at').notNullable();
    t.index(['staff_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('staff_reset_tokens');
}
