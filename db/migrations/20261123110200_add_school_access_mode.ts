import type { Knex } from 'knex';

/** school_password: the school password opens the gallery; student_codes: only a child's code does. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('schools', (t) => {
    t.string('access_mode', 20).notNullable().defaultTo('school_password');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('schools', (t) => {
    t.dropColumn('access_mode');
  });
}
