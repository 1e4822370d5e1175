import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('schools', (t) => {
    t.increments('id').primary();
    t.string('name', 150).notNullable();
    t.string('slug', 80).notNullable().unique();
    t.string('password_hash', 255).notNullable();
    t.string('contact_email', 254).notNullable();
    t.string('contact_phone', 40).nullable();
    t.string('address', 300).nullable();
    /** YYYY-MM-DD; after that day only digital products are sold. */
    t.string('closing_date', 10).nullable();
    t.integer('price_list_id').unsigned().nullable().references('id').inTable('price_lists').onDelete('SET NULL');
    t.bigInteger('created_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('schools');
}
