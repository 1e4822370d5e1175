import type { Knex } from 'knex';

/**
 * Print or digital is the product's own setting, no longer a word in its name
 * (docs/money-and-pricing.md, "Print and digital products"):
 * - price_list_items.kind: 'print' (goes to the lab) or 'digital' (a download); print_size: the
 *   print's size as staff write it ("10x15 cm"), null when not given or digital;
 * - order_items.kind: the product's kind when the order was placed, so a later edit of the price
 *   list never changes what an order was.
 * Existing rows take today's rule: "digital" or "download" in the product's name (or, on an order
 * line, its product id, as the built-in "digital") makes it digital. The markers are written out
 * here because a migration never imports application code.
 */
const MARKERS = ['digital', 'download'];

function markedDigital(knex: Knex, query: Knex.QueryBuilder, columns: string[]): Knex.QueryBuilder {
  return query.where((digital) => {
    for (const column of columns) for (const marker of MARKERS) digital.orWhereRaw(`lower(${column}) like ?`, [`%${marker}%`]);
  });
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('price_list_items', (t) => {
    t.string('kind', 10).notNullable().defaultTo('print');
    t.string('print_size', 40).nullable();
  });
  await knex.schema.alterTable('order_items', (t) => {
    t.string('kind', 10).notNullable().defaultTo('print');
  });
  await markedDigital(knex, knex('price_list_items'), ['product_type']).update({ kind: 'digital' });
  await markedDigital(knex, knex('order_items'), ['product_type', 'product_name']).update({ kind: 'digital' });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('order_items', (t) => {
    t.dropColumn('kind');
  });
  await knex.schema.alterTable('price_list_items', (t) => {
    t.dropColumn('kind');
    t.dropColumn('print_size');
  });
}
