import type { Knex } from 'knex';

/**
 * A child's replaced codes (docs/access.md, "Erasure, completely"): a card photographed with an old
 * code still shows the child, so it is recorded as theirs and erased with them.
 * - code_digest: SHA-256 (hex) of the replaced code, normalised; the code itself is not kept;
 * - replaced_at: when a new code replaced it (epoch ms).
 * The rows go with the child (ON DELETE CASCADE).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('student_past_codes', (t) => {
    t.increments('id').primary();
    t.integer('student_id').unsigned().notNullable().references('id').inTable('students').onDelete('CASCADE');
    t.string('code_digest', 64).notNullable();
    t.bigInteger('replaced_at').notNullable();
    t.index(['code_digest'], 'student_past_codes_digest');
    t.index(['student_id'], 'student_past_codes_student');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('student_past_codes');
}
