import type { Knex } from 'knex';

/**
 * SMS through the same outbox as e-mail (docs/sms.md, "Sending" and "Delivery receipts").
 *
 * - outbox_messages.channel: 'email' (every row before this) or 'sms'. An SMS row's recipient is
 *   the E.164 number and its text the SMS body; subject and html are empty.
 * - outbox_messages.smsc_message_id: the id the SMS centre gave the message in its submit_sm_resp,
 *   which its delivery receipt (deliver_sm) names; indexed to record the receipt.
 * - outbox_messages.delivery_status / delivered_at: what the receipt said ('delivered', 'failed' or
 *   'expired') and when it came.
 * - outbox_messages (guardian_id, not_before): the one-message-a-day rule counts a guardian's rows
 *   on both channels.
 * - short_links: `PUBLIC_URL/s/{token}` for the links in an SMS (docs/sms.md, "Short links"); the
 *   target is a path on PUBLIC_URL, never another site.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outbox_messages', (t) => {
    t.string('channel', 8).notNullable().defaultTo('email');
    t.string('smsc_message_id', 65).nullable();
    t.string('delivery_status', 10).nullable();
    t.bigInteger('delivered_at').nullable();
    t.index(['smsc_message_id']);
    t.index(['guardian_id', 'not_before']);
  });
  await knex.schema.createTable('short_links', (t) => {
    t.string('token', 16).primary();
    t.string('target_path', 1000).notNullable();
    t.bigInteger('expires_at').nullable();
    t.bigInteger('created_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('short_links');
  await knex.schema.alterTable('outbox_messages', (t) => {
    t.dropIndex(['guardian_id', 'not_before']);
    t.dropIndex(['smsc_message_id']);
    t.dropColumn('delivered_at');
    t.dropColumn('delivery_status');
    t.dropColumn('smsc_message_id');
    t.dropColumn('channel');
  });
}
