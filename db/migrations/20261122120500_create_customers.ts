import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('customers', (t) => {
    t.increments('id').primary();
    t.string('email', 254).notNullable().unique();
    /** Null until the customer sets a password (accounts created at checkout). */
    t.string('password_hash', 255).nullable();
    t.string('first_name', 100).notNullable();
    t.string('last_name', 100).notNullable();
    t.string('phone', 40).nullable();
    t.bigInteger('tokens_valid_after').notNullable().defaultTo(0);
    t.bigInteger('created_at').notNullable();
  });
  await knex.schema.createTable('password_reset_tokens', (t) => {
    t.increments('id').primary();
    t.integer('customer_id').unsigned().notNullable().references('id').inTable('customers').onDelete('CASCADE');
    /** SHA-256 of the token; the token itself is never stored. */
    t.string('token_hash', 64).notNullable().unique();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('used_at').nullable();
    t.bigInteger('created_at').notNullable();
    t.index(['customer_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('password_reset_tokens');
  await knex.schema.dropTable('customers');
}
