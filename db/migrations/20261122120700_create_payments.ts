import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payments', (t) => {
    t.increments('id').primary();
    t.string('order_id', 16).notNullable().references('id').inTable('orders').onDelete('CASCADE');
    /** 'sandbox' or 'paygate': staff screens mark sandbox payments as test orders. */
    t.string('gateway', 20).notNullable();
    t.string('paygate_id', 20).notNullable();
    t.string('pay_request_id', 64).nullable().unique();
    t.string('reference', 110).notNullable();
    t.integer('amount_thebe').notNullable();
    t.string('currency', 5).notNullable();
    t.string('status', 20).notNullable().defaultTo('initiated');
    t.integer('transaction_status').nullable();
    t.string('result_code', 20).nullable();
    t.string('result_desc', 255).nullable();
    t.string('transaction_id', 40).nullable();
    t.bigInteger('last_queried_at').nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['order_id']);
    t.index(['status']);
  });
  await knex.schema.createTable('payment_callbacks', (t) => {
    t.increments('id').primary();
    t.integer('payment_id').unsigned().nullable().references('id').inTable('payments').onDelete('SET NULL');
    /** notify | return | query */
    t.string('kind', 16).notNullable();
    t.text('body').notNullable();
    t.integer('checksum_ok').notNullable();
    t.string('outcome', 60).notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['payment_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('payment_callbacks');
  await knex.schema.dropTable('payments');
}
