import type { Knex } from 'knex';

/**
 * Covering indexes for the season reports (docs/reports.md#how-the-figures-stay-fast): each report
 * query reads one index range in order and never the table rows.
 *
 * - sales_lines_class_figures: the per-class figures, read in class order and, within a class, in
 *   child order, so the grouping and the count of distinct children stream (no sort); the paid day
 *   filters inside the index; orders are counted from the first-line flags.
 * - sales_lines_class_items: the best sellers, likewise.
 * - sales_lines_paid: the sales over time of every school, by paid day (a range of days is one
 *   range of the index).
 * - sales_lines_school_paid / sales_lines_class_paid: the sales over time of one school or one class.
 * - gallery_visits_day: who opened a gallery in a range of days.
 * - orders_duplicate_payments / orders_paid_after_cancel: the few orders flagged for a refund,
 *   found without reading every order; orders_waiting: the orders waiting for payment, with
 *   what the report sums of them (school, class, day placed, total), so it never reads the rows.
 * - photos_album_kind_created: a class's first photo (its publish day when it was never published).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sales_lines', (t) => {
    t.index(['school_id', 'album_id', 'student_id', 'paid_day', 'class_first', 'order_first', 'digital', 'revenue_thebe'], 'sales_lines_class_figures');
    t.index(['school_id', 'album_id', 'item_key', 'paid_day', 'item_kind', 'item_name', 'quantity', 'revenue_thebe'], 'sales_lines_class_items');
    t.index(['paid_day', 'order_id', 'revenue_thebe', 'publish_offset'], 'sales_lines_paid');
    t.index(['school_id', 'paid_day', 'album_id', 'order_id', 'revenue_thebe', 'publish_offset'], 'sales_lines_school_paid');
    t.index(['album_id', 'paid_day', 'order_id', 'revenue_thebe', 'publish_offset'], 'sales_lines_class_paid');
  });
  await knex.schema.alterTable('gallery_visits', (t) => {
    t.index(['day', 'school_id', 'album_id', 'kind', 'visitor'], 'gallery_visits_day');
  });
  await knex.schema.alterTable('orders', (t) => {
    t.index(['duplicate_payments'], 'orders_duplicate_payments');
    t.index(['paid_after_cancel'], 'orders_paid_after_cancel');
    t.index(['order_status', 'payment_status', 'school_id', 'album_id', 'created_at', 'total_thebe'], 'orders_waiting');
  });
  await knex.schema.alterTable('photos', (t) => {
    t.index(['album_id', 'kind', 'created_at'], 'photos_album_kind_created');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('photos', (t) => {
    t.dropIndex(['album_id', 'kind', 'created_at'], 'photos_album_kind_created');
  });
  await knex.schema.alterTable('orders', (t) => {
    t.dropIndex(['order_status', 'payment_status', 'school_id', 'album_id', 'created_at', 'total_thebe'], 'orders_waiting');
    t.dropIndex(['paid_after_cancel'], 'orders_paid_after_cancel');
    t.dropIndex(['duplicate_payments'], 'orders_duplicate_payments');
  });
  await knex.schema.alterTable('gallery_visits', (t) => {
    t.dropIndex(['day', 'school_id', 'album_id', 'kind', 'visitor'], 'gallery_visits_day');
  });
  await knex.schema.alterTable('sales_lines', (t) => {
    t.dropIndex(['album_id', 'paid_day', 'order_id', 'revenue_thebe', 'publish_offset'], 'sales_lines_class_paid');
    t.dropIndex(['school_id', 'paid_day', 'album_id', 'order_id', 'revenue_thebe', 'publish_offset'], 'sales_lines_school_paid');
    t.dropIndex(['paid_day', 'order_id', 'revenue_thebe', 'publish_offset'], 'sales_lines_paid');
    t.dropIndex(['school_id', 'album_id', 'item_key', 'paid_day', 'item_kind', 'item_name', 'quantity', 'revenue_thebe'], 'sales_lines_class_items');
    t.dropIndex(['school_id', 'album_id', 'student_id', 'paid_day', 'class_first', 'order_first', 'digital', 'revenue_thebe'], 'sales_lines_class_figures');
  });
}
