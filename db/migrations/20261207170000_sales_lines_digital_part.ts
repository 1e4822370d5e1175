import type { Knex } from 'knex';

/**
 * sales_lines.digital_thebe: the part of a line's revenue that is digital (docs/reports.md,
 * "Revenue of a line"). A digital single line is digital in full and a print line not at all; a
 * package counts its digital contents' part of its revenue as digital, so a package of prints and
 * a digital copy no longer counts the copy as print. Lines written before carry what they counted
 * then: all of the revenue when the line was marked digital, else none.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sales_lines', (t) => {
    t.integer('digital_thebe').notNullable().defaultTo(0);
  });
  await knex('sales_lines').where('digital', true).update({ digital_thebe: knex.ref('revenue_thebe') });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sales_lines', (t) => {
    t.dropColumn('digital_thebe');
  });
}
