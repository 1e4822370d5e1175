import type { Knex } from 'knex';

/**
 * Payment methods and payments that settle later (docs/payments.md, "Payment methods" and
 * "Payments that settle later"):
 * - payments.method: the method the parent chose (`card`, `ewallet`, `bank_transfer`; null for a
 *   payment begun before methods existed);
 * - payments.pay_method, pay_method_detail: what the gateway reported (PayWeb3 PAY_METHOD "CC",
 *   "EW", "BT" and PAY_METHOD_DETAIL "Visa", "SID");
 * - payments.received_at: when the gateway first answered "received, final result later" (status 5);
 * - payments.expires_at: for a received bank transfer, when it expires unless confirmed;
 * - payments.expired_at: when it did expire (a later approval is then "paid after expiry");
 * - orders.paid_after_expiry: approvals that arrived after their payment had expired.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.string('method', 20).nullable();
    t.string('pay_method', 10).nullable();
    t.string('pay_method_detail', 40).nullable();
    t.bigInteger('received_at').nullable();
    t.bigInteger('expires_at').nullable();
    t.bigInteger('expired_at').nullable();
  });
  await knex.schema.alterTable('orders', (t) => {
    t.integer('paid_after_expiry').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('orders', (t) => {
    t.dropColumn('paid_after_expiry');
  });
  await knex.schema.alterTable('payments', (t) => {
    t.dropColumn('expired_at');
    t.dropColumn('expires_at');
    t.dropColumn('received_at');
    t.dropColumn('pay_method_detail');
    t.dropColumn('pay_method');
    t.dropColumn('method');
  });
}
