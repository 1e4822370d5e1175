import type { Knex } from 'knex';

/** Null: a group photo of the class, visible to every family of that class. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('photos', (t) => {
    t.integer('student_id').unsigned().nullable().references('id').inTable('students').onDelete('RESTRICT');
    t.index(['student_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('photos', (t) => {
    t.dropForeign(['student_id']);
    t.dropIndex(['student_id']);
    t.dropColumn('student_id');
  });
}
