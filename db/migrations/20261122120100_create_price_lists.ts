import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('price_lists', (t) => {
    t.increments('id').primary();
    t.string('name', 120).notNullable();
    t.string('description', 1000).notNullable().defaultTo('');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
  await knex.schema.createTable('price_list_items', (t) => {
    t.increments('id').primary();
    t.integer('price_list_id').unsigned().notNullable().references('id').inTable('price_lists').onDelete('CASCADE');
    t.string('product_type', 120).notNullable();
    t.string('description', 500).notNullable().defaultTo('');
    t.integer('price_thebe').notNullable();
    /** File name under STORAGE_DIR/examples, served at /api/example-images/{file}. */
    t.string('example_image', 100).nullable();
    t.integer('position').notNullable().defaultTo(0);
    t.index(['price_list_id', 'position']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('price_list_items');
  await knex.schema.dropTable('price_lists');
}
