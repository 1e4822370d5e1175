import type { Knex } from 'knex';

/**
 * Season totals of the paid sale lines, per class, maintained by a background job
 * (docs/reports.md#how-the-figures-stay-fast): the whole-season report reads about 2,000 class
 * rows and 12,000 item rows rather than every paid line.
 *
 * - sales_lines.rolled_up: the line is counted in the totals below. Only paid lines are rolled up,
 *   once, by the job (a paid line never changes again); an unpaid line stays false. The index
 *   finds the paid lines not yet rolled up, which the report adds to the totals itself.
 * - sales_class_totals: per (school, class) — `album_key` is the class id, 0 for lines without a
 *   class — the sums of the rolled-up lines' class_first (paid orders of the class), order_first
 *   (the school's orders first seen in this row), revenue and digital revenue.
 * - sales_class_items: per (school, class, item_key) the units and revenue, with the item's kind and
 *   its name (the greatest of the names sold, as the report over lines shows it).
 * - sales_class_children: each (school, class, child) with a rolled-up paid line, so a class's
 *   ordering children are a count of its rows.
 *
 * The lines already paid are rolled up here, in the migration.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sales_lines', (t) => {
    t.boolean('rolled_up').notNullable().defaultTo(false);
    t.index(['rolled_up', 'paid_day'], 'sales_lines_unrolled');
  });
  await knex.schema.createTable('sales_class_totals', (t) => {
    t.integer('school_id').unsigned().notNullable();
    t.integer('album_key').unsigned().notNullable();
    t.integer('paid_orders').notNullable();
    t.integer('school_orders').notNullable();
    t.bigInteger('revenue_thebe').notNullable();
    t.bigInteger('digital_revenue_thebe').notNullable();
    t.primary(['school_id', 'album_key']);
  });
  await knex.schema.createTable('sales_class_items', (t) => {
    t.integer('school_id').unsigned().notNullable();
    t.integer('album_key').unsigned().notNullable();
    t.string('item_key', 40).notNullable();
    t.string('item_kind', 8).notNullable();
    t.string('item_name', 120).notNullable();
    t.integer('quantity').notNullable();
    t.bigInteger('revenue_thebe').notNullable();
    t.primary(['school_id', 'album_key', 'item_key']);
  });
  await knex.schema.createTable('sales_class_children', (t) => {
    t.integer('school_id').unsigned().notNullable();
    t.integer('album_key').unsigned().notNullable();
    t.integer('student_id').unsigned().notNullable();
    t.primary(['school_id', 'album_key', 'student_id']);
  });
  await rollUpPaidLines(knex);
}

/** Rolls up every paid line into the empty season tables (exported for its test). */
export async function rollUpPaidLines(knex: Knex): Promise<void> {
  const albumKey = knex.raw('coalesce(album_id, 0)');
  await knex
    .into(knex.raw('sales_class_totals (school_id, album_key, paid_orders, school_orders, revenue_thebe, digital_revenue_thebe)'))
    .insert(
      knex('sales_lines')
        .whereNotNull('paid_day')
        .groupBy('school_id', albumKey)
        .select(
          'school_id',
          knex.raw('coalesce(album_id, 0) as album_key'),
          knex.raw('sum(case when class_first then 1 else 0 end)'),
          knex.raw('sum(case when order_first then 1 else 0 end)'),
          knex.raw('sum(revenue_thebe)'),
          knex.raw('sum(case when digital then revenue_thebe else 0 end)'),
        ),
    );
  await knex
    .into(knex.raw('sales_class_items (school_id, album_key, item_key, item_kind, item_name, quantity, revenue_thebe)'))
    .insert(
      knex('sales_lines')
        .whereNotNull('paid_day')
        .groupBy('school_id', albumKey, 'item_key')
        .select('school_id', knex.raw('coalesce(album_id, 0) as album_key'), 'item_key', knex.raw('max(item_kind)'), knex.raw('max(item_name)'), knex.raw('sum(quantity)'), knex.raw('sum(revenue_thebe)')),
    );
  await knex
    .into(knex.raw('sales_class_children (school_id, album_key, student_id)'))
    .insert(knex('sales_lines').whereNotNull('paid_day').whereNotNull('student_id').distinct('school_id', knex.raw('coalesce(album_id, 0) as album_key'), 'student_id'));
  await knex('sales_lines').whereNotNull('paid_day').update({ rolled_up: true });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sales_class_children');
  await knex.schema.dropTable('sales_class_items');
  await knex.schema.dropTable('sales_class_totals');
  await knex.schema.alterTable('sales_lines', (t) => {
    t.dropIndex(['rolled_up', 'paid_day'], 'sales_lines_unrolled');
    t.dropColumn('rolled_up');
  });
}
