import type { Knex } from 'knex';

/**
 * Proof that an erasure happened (who, when, how much), without the child: no name, number, code
 * or photo is kept.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('student_erasures', (t) => {
    t.increments('id').primary();
    t.integer('school_id').unsigned().nullable().references('id').inTable('schools').onDelete('SET NULL');
    t.integer('album_id').unsigned().nullable().references('id').inTable('albums').onDelete('SET NULL');
    t.integer('erased_by').unsigned().nullable().references('id').inTable('staff').onDelete('SET NULL');
    /** Kept as text so the record still names the staff member after their account is removed. */
    t.string('erased_by_email', 254).notNullable();
    t.integer('photos_deleted').unsigned().notNullable();
    t.integer('order_lines_redacted').unsigned().notNullable();
    t.bigInteger('erased_at').notNullable();
    t.index(['school_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('student_erasures');
}
