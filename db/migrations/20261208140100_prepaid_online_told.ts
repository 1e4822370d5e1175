import type { Knex } from 'knex';

/**
 * order_packages.online_told_at: epoch ms when the family of a prepaid package line was told its
 * child's photos are online and to choose them (docs/prepaid.md, "Choosing the photos"); null
 * until then. The job that tells them writes it with the message, once per line.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('order_packages', (t) => {
    t.bigInteger('online_told_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('order_packages', (t) => {
    t.dropColumn('online_told_at');
  });
}
