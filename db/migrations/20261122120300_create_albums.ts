import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('albums', (t) => {
    t.increments('id').primary();
    t.integer('school_id').unsigned().notNullable().references('id').inTable('schools').onDelete('CASCADE');
    t.string('name', 120).notNullable();
    /** Null: the class is open to everyone who unlocked the school. */
    t.string('password_hash', 255).nullable();
    t.bigInteger('created_at').notNullable();
    t.index(['school_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('albums');
}
