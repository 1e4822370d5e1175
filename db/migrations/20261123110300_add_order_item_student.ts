import type { Knex } from 'knex';

/** The child an order line was for; cleared when that child is erased. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('order_items', (t) => {
    t.integer('student_id').unsigned().nullable().references('id').inTable('students').onDelete('SET NULL');
    t.index(['student_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('order_items', (t) => {
    t.dropForeign(['student_id']);
    t.dropIndex(['student_id']);
    t.dropColumn('student_id');
  });
}
