import type { Knex } from 'knex';

/**
 * orders.paid_after_cancel: approved payments that arrived after the order was cancelled. The
 * money moved, so staff refund each one ("Paid after cancellation: refund", docs/payments.md,
 * "Paid after cancellation"); the order stays cancelled and is not revenue.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.integer('paid_after_cancel').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('paid_after_cancel');
  });
}
