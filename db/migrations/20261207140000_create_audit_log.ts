import type { Knex } from 'knex';

/**
 * The staff audit log (docs/accounts.md, "The audit log"): who did which admin-only action or
 * erasure, and when. It names what was acted on by id (and a class's or school's name), never a
 * child's or a guardian's name, address or photo, so it can outlive an erasure.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_log', (t) => {
    t.increments('id').primary();
    t.string('action', 40).notNullable();
    /** No foreign key: the entry still names who acted after their account is removed. */
    t.integer('staff_id').unsigned().notNullable();
    t.string('staff_email', 254).notNullable();
    t.string('staff_role', 20).notNullable();
    /** The student, class or guardian acted on; no foreign key, since erasing it must keep the entry. */
    t.integer('target_id').unsigned().nullable();
    t.integer('school_id').unsigned().nullable();
    t.string('school_name', 200).nullable();
    t.integer('album_id').unsigned().nullable();
    t.string('album_name', 200).nullable();
    /** How many photos (or order lines) the action removed, when it removed any. */
    t.integer('count').unsigned().nullable();
    t.bigInteger('at').notNullable();
    t.index(['at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('audit_log');
}
