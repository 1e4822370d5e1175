import type { Knex } from 'knex';

/**
 * orders.paid_with_withdrawn: lines whose photo was withdrawn when an approval paid the order
 * anyway (docs/payments.md, "Withdrawn photos are never charged"); staff refund them.
 * print_batches.documents_changed_at: when a sold photo in the batch was moved or withheld after
 * the batch was made, so its packing list and labels changed (docs/statuses.md, "Print batches").
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.integer('paid_with_withdrawn').notNullable().defaultTo(0);
  });
  await knex.schema.alterTable('print_batches', (t) => {
    t.bigInteger('documents_changed_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('print_batches', (t) => {
    t.dropColumn('documents_changed_at');
  });
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('paid_with_withdrawn');
  });
}
