import type { Knex } from 'knex';

/** The SHA-256 of the order request an Idempotency-Key was first used with: a replay must match it. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.string('idempotency_hash', 64).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('idempotency_hash');
  });
}
