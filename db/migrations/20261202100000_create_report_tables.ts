import type { Knex } from 'knex';

/**
 * Season reports (docs/reports.md) read two tables the product maintains as it goes, so a report
 * over a season of 200,000 orders reads narrow, indexed rows rather than every order:
 *
 * - sales_lines: one row per sale line of an order (a single product line, or a package line with
 *   its contents), written in the order's own transaction. `list_thebe` is the line's total before
 *   discounts and `revenue_thebe` its share of what the order charges (docs/reports.md, "Revenue of
 *   a line"); the revenues of an order's rows add up to its total. `paid_day` (YYYYMMDD in
 *   Africa/Gaborone, an integer so it sorts and indexes cheaply), `paid_at` and `publish_offset`
 *   (days from the class's publish day to the day paid) are set in the transaction that marks the
 *   order paid, exactly once; null while unpaid. `placed_day` is the day the order was placed.
 *   `item_kind` print | digital | package; `item_key` product:{id} | package:{id};
 *   `digital` says whether the line's revenue counts as digital. `order_first` marks the first
 *   line of its order and `class_first` the first line of its order in its class (album_id, null
 *   included), so a report counts orders with a SUM over the lines it reads anyway instead of a
 *   COUNT(DISTINCT order_id) (docs/reports.md#how-the-figures-stay-fast).
 * - gallery_visits: who opened a gallery, for the "opened" figure (docs/reports.md, "Families who
 *   opened the gallery"). `kind` child: a child unlocked by code (`visitor` is c:{studentId});
 *   grant: a school or class grant seen on a class or school (`visitor` is a keyed hash of the
 *   grant). One row per (visitor, album, day): `subject` is the unique key of that triple.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sales_lines', (t) => {
    t.increments('id').primary();
    t.string('order_id', 16).notNullable().references('id').inTable('orders').onDelete('CASCADE');
    t.integer('school_id').unsigned().notNullable();
    t.integer('album_id').unsigned().nullable();
    t.integer('student_id').unsigned().nullable();
    t.string('item_kind', 8).notNullable();
    t.string('item_key', 40).notNullable();
    t.string('item_name', 120).notNullable();
    t.boolean('digital').notNullable().defaultTo(false);
    t.boolean('order_first').notNullable().defaultTo(false);
    t.boolean('class_first').notNullable().defaultTo(false);
    t.integer('quantity').notNullable();
    t.integer('list_thebe').notNullable();
    t.integer('revenue_thebe').notNullable();
    t.integer('placed_day').notNullable();
    t.integer('paid_day').nullable();
    t.bigInteger('paid_at').nullable();
    t.integer('publish_offset').nullable();
    t.index(['order_id']);
  });
  await knex.schema.createTable('gallery_visits', (t) => {
    t.increments('id').primary();
    t.integer('school_id').unsigned().notNullable();
    t.integer('album_id').unsigned().nullable();
    t.integer('student_id').unsigned().nullable();
    t.string('kind', 8).notNullable();
    t.string('visitor', 40).notNullable();
    t.integer('day').notNullable();
    t.string('subject', 80).notNullable().unique();
    t.bigInteger('created_at').notNullable();
    t.index(['school_id', 'day']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('gallery_visits');
  await knex.schema.dropTableIfExists('sales_lines');
}
