import type { Knex } from 'knex';

/**
 * Reaching families after picture day (docs/outreach.md) on a durable outbox (docs/email.md,
 * "The outbox"). Times are epoch milliseconds, like the rest of the schema.
 *
 * - outbox_messages: every e-mail, written in the same transaction as what caused it and delivered
 *   by the sender job. `message_id` is the Message-ID header (one per row, kept across retries);
 *   `dedupe_key` makes "once each" messages (a reminder per guardian and date, one abandoned-cart
 *   message per cart) a unique insert. `status`: queued | sending | sent | failed | cancelled
 *   (a queued reminder withdrawn because its reason went away).
 * - guardians: an address that asked to hear about a child's or school's photos, with the consent
 *   text version and time, the double opt-in (`confirmed_at`), the separate marketing opt-in, and
 *   `unsubscribed_at` (one click stops every non-transactional message).
 * - guardian_follows: the children (codes) or schools (passwords) a guardian follows, as proven by
 *   the browser's grant when subscribing.
 * - guardian_carts: a confirmed guardian's cart, mirrored (item ids and quantities only).
 * - school_message_schedules: a school's own season timeline; no row means the default.
 * - schools.picture_day: the day the photos were taken (YYYY-MM-DD).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('outbox_messages', (t) => {
    t.increments('id').primary();
    t.string('message_id', 120).notNullable().unique();
    t.string('kind', 40).notNullable();
    t.string('recipient', 254).notNullable();
    t.string('subject', 300).notNullable();
    t.text('text', 'mediumtext').notNullable();
    t.text('html', 'mediumtext').notNullable();
    /** Extra headers as JSON, e.g. List-Unsubscribe and List-Unsubscribe-Post. */
    t.text('headers').nullable();
    t.string('dedupe_key', 190).nullable().unique();
    t.integer('school_id').unsigned().nullable().references('id').inTable('schools').onDelete('SET NULL');
    t.integer('guardian_id').unsigned().nullable();
    t.string('order_id', 64).nullable();
    t.string('status', 10).notNullable().defaultTo('queued');
    t.integer('attempts').notNullable().defaultTo(0);
    /** Not sent before this time (a retry's backoff, or a season message waiting for the sending window). */
    t.bigInteger('not_before').notNullable();
    /** While `sending`: which process claimed it and until when the claim holds. */
    t.string('claimed_by', 64).nullable();
    t.bigInteger('lease_until').nullable();
    t.string('last_error', 500).nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('sent_at').nullable();
    t.bigInteger('failed_at').nullable();
    t.index(['status', 'not_before']);
    t.index(['school_id', 'kind']);
    t.index(['recipient', 'created_at']);
  });

  await knex.schema.createTable('guardians', (t) => {
    t.increments('id').primary();
    t.string('email', 254).notNullable().unique();
    t.string('confirm_token_hash', 64).nullable().unique();
    t.bigInteger('confirm_expires_at').nullable();
    t.bigInteger('confirmed_at').nullable();
    t.string('consent_version', 20).notNullable();
    t.bigInteger('consent_at').notNullable();
    t.integer('marketing').notNullable().defaultTo(0);
    t.bigInteger('marketing_at').nullable();
    t.bigInteger('unsubscribed_at').nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
  });

  await knex.schema.createTable('guardian_follows', (t) => {
    t.increments('id').primary();
    t.integer('guardian_id').unsigned().notNullable().references('id').inTable('guardians').onDelete('CASCADE');
    t.integer('school_id').unsigned().notNullable().references('id').inTable('schools').onDelete('CASCADE');
    /** The child followed (a code unlock); null when the guardian follows the whole school (a password unlock). */
    t.integer('student_id').unsigned().nullable().references('id').inTable('students').onDelete('CASCADE');
    t.bigInteger('created_at').notNullable();
    t.index(['guardian_id']);
    t.index(['school_id']);
    t.index(['student_id']);
  });

  await knex.schema.createTable('guardian_carts', (t) => {
    t.integer('guardian_id').unsigned().primary().references('id').inTable('guardians').onDelete('CASCADE');
    t.integer('school_id').unsigned().nullable().references('id').inTable('schools').onDelete('CASCADE');
    /** JSON [{ photoId, productId, quantity }]: ids and quantities only. */
    t.text('items').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['updated_at']);
  });

  await knex.schema.createTable('school_message_schedules', (t) => {
    t.integer('school_id').unsigned().primary().references('id').inTable('schools').onDelete('CASCADE');
    t.integer('photos_online').notNullable().defaultTo(1);
    /** Days before the closing date, comma-separated, e.g. "7,3,1". */
    t.string('reminder_days', 40).notNullable();
    t.string('send_from', 5).notNullable();
    t.string('send_until', 5).notNullable();
    t.bigInteger('updated_at').notNullable();
  });

  await knex.schema.alterTable('schools', (t) => {
    t.string('picture_day', 10).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('schools', (t) => {
    t.dropColumn('picture_day');
  });
  await knex.schema.dropTable('school_message_schedules');
  await knex.schema.dropTable('guardian_carts');
  await knex.schema.dropTable('guardian_follows');
  await knex.schema.dropTable('guardians');
  await knex.schema.dropTable('outbox_messages');
}
