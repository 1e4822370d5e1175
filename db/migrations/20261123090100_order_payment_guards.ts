import type { Knex } from 'knex';

/**
 * `payment_claimed_until`: while one request talks to the gateway to open a payment for an order,
 * others wait for it and reuse its payment instead of opening a second one that could also be paid.
 * `duplicate_payments`: approved payments that arrived after the order was already paid; staff
 * refund each of them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.bigInteger('payment_claimed_until').nullable();
    t.integer('duplicate_payments').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('duplicate_payments');
    t.dropColumn('payment_claimed_until');
  });
}
