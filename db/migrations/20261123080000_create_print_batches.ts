import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('print_batches', (t) => {
    t.increments('id').primary();
    t.integer('school_id').unsigned().notNullable().references('id').inTable('schools').onDelete('RESTRICT');
    /** at_printers, ready_for_delivery or delivered: only ever moves forward. */
    t.string('status', 30).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['school_id']);
    t.index(['created_at']);
  });
  // A join table rather than a column on orders: its primary key on order_id makes the database
  // itself refuse a second batch for an order, and orders needs no table rebuild on SQLite.
  await knex.schema.createTable('print_batch_orders', (t) => {
    t.string('order_id', 16).primary().references('id').inTable('orders').onDelete('CASCADE');
    t.integer('batch_id').unsigned().notNullable().references('id').inTable('print_batches').onDelete('CASCADE');
    t.index(['batch_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('print_batch_orders');
  await knex.schema.dropTable('print_batches');
}
