import type { Knex } from 'knex';

/**
 * access_version: one row whose `version` rises, in the same transaction, with every change that
 * can take a gallery grant away (a school's or a class's grant epoch, a child's code, a child or
 * class or school deleted). Each server process reads it at most once a second and keeps the
 * grants it resolved under it (docs/access.md, "The gallery cookie").
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('access_version', (t) => {
    t.integer('id').primary();
    t.bigInteger('version').notNullable().defaultTo(0);
  });
  await knex('access_version').insert({ id: 1, version: 0 });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('access_version');
}
