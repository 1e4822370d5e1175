import type { Knex } from 'knex';

/**
 * Double opt-in per request (docs/outreach.md, "Double opt-in"):
 *
 * - guardian_confirmations: one row per subscribe request, holding only the SHA-256 of its link's
 *   token, its end, the marketing choice of that request and `follows_up_to`, the highest follow id
 *   of the guardian when it was made: its link confirms those follows and no later one. Several
 *   links may be open at once (a parent who tapped twice, or a phone and a laptop), each valid
 *   until its end; `used_at` keeps a second click answering "confirmed".
 * - guardian_follows.confirmed_at: a follow is pending until a link made after it is clicked, so a
 *   follow added by a later subscribe (perhaps from someone else's browser) reaches an address that
 *   is already confirmed only once that address confirms again.
 *
 * guardians.confirm_token_hash and confirm_expires_at are superseded by this table and stay null.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('guardian_confirmations', (t) => {
    t.increments('id').primary();
    t.integer('guardian_id').unsigned().notNullable().references('id').inTable('guardians').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique();
    t.string('consent_version', 20).notNullable();
    t.integer('marketing').notNullable().defaultTo(0);
    t.integer('follows_up_to').notNullable().defaultTo(0);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('used_at').nullable();
    t.index(['guardian_id']);
  });
  await knex.schema.alterTable('guardian_follows', (t) => {
    t.bigInteger('confirmed_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('guardian_follows', (t) => {
    t.dropColumn('confirmed_at');
  });
  await knex.schema.dropTable('guardian_confirmations');
}
