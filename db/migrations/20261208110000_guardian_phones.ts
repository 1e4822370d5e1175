import type { Knex } from 'knex';

/**
 * Consent by phone (docs/outreach.md, "Double opt-in: by phone"; docs/sms.md, "Consent by phone").
 *
 * - guardians.phone: the guardian's mobile number, E.164 (+26771234567), unique; null for a guardian
 *   reached by e-mail only. guardians.email becomes nullable: a guardian reached by phone only has
 *   none. A row is one person: a subscribe puts an e-mail and a phone on one row only when neither
 *   belongs to a guardian yet.
 * - guardians.phone_confirmed_at: when a code sent to the phone was entered. `confirmed_at` stays
 *   the e-mail address's confirmation, so an address is never written to because its phone was
 *   confirmed, nor a phone because its address was.
 * - guardian_confirmations.channel: 'email' (a link, every row before this) or 'phone' (a code).
 *   A phone request's token_hash is the SHA-256 of a random value that is never sent (the column
 *   stays unique and not null; no link can name it), `code_hash` the HMAC of its 6-digit code under
 *   the server's secret, and `code_tries` the codes entered against it (each try counts before the code is compared, so five end it even when sent at once).
 *
 * On SQLite a column change rebuilds the table (copy, drop, rename). Dropping `guardians` with
 * foreign keys on would cascade into its follows, carts and links, and the pragma that turns them
 * off is ignored inside a transaction, so this migration runs outside one: knex turns the checks off
 * for the rebuild and checks every key afterwards.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('guardians', (t) => {
    t.string('email', 254).nullable().alter();
  });
  await knex.schema.alterTable('guardians', (t) => {
    t.string('phone', 16).nullable().unique();
    t.bigInteger('phone_confirmed_at').nullable();
  });
  await knex.schema.alterTable('guardian_confirmations', (t) => {
    t.string('channel', 8).notNullable().defaultTo('email');
    t.string('code_hash', 64).nullable();
    t.integer('code_tries').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  // Phone requests and guardians reached by phone alone cannot be kept without the columns.
  await knex('guardian_confirmations').where({ channel: 'phone' }).delete();
  await knex('guardians').whereNull('email').delete();
  await knex.schema.alterTable('guardian_confirmations', (t) => {
    t.dropColumn('code_tries');
    t.dropColumn('code_hash');
    t.dropColumn('channel');
  });
  await knex.schema.alterTable('guardians', (t) => {
    t.dropUnique(['phone']);
  });
  await knex.schema.alterTable('guardians', (t) => {
    t.dropColumn('phone_confirmed_at');
    t.dropColumn('phone');
  });
  await knex.schema.alterTable('guardians', (t) => {
    t.string('email', 254).notNullable().alter();
  });
}
