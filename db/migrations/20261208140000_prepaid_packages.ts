import type { Knex } from 'knex';

/**
 * Ordering before picture day (docs/prepaid.md):
 *
 * - order_packages.prepaid: the line was ordered without photos (a child held by code, before the
 *   child had released photos); its contents (order_items with its id) are written when the photos
 *   are chosen, by the family or by the studio's fill at the closing date.
 * - order_packages.poses_chosen_by: 'family' | 'studio', null while nobody chose (a line ordered
 *   with its photos is 'family'); poses_chosen_at: epoch ms of the latest choice.
 * - order_packages.album_id: the child's class when the line was ordered, for "packages waiting
 *   for photos" per class (a line with photos reads its class from its contents).
 * - order_packages.no_photo_at: epoch ms when the closing date's fill found no released photo of
 *   the child: the line is flagged to staff for a retake or a refund (null: not flagged).
 * - students.default_photo_id: the child's default pose, marked by staff on the review sheet.
 * - sales_lines.prepaid: the sale line is a package ordered before picture day (reports).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('order_packages', (t) => {
    t.boolean('prepaid').notNullable().defaultTo(false);
    t.string('poses_chosen_by', 10).nullable();
    t.bigInteger('poses_chosen_at').nullable();
    t.integer('album_id').unsigned().nullable();
    t.bigInteger('no_photo_at').nullable();
    t.index(['prepaid', 'poses_chosen_by']);
  });
  await knex.schema.alterTable('students', (t) => {
    t.integer('default_photo_id').unsigned().nullable();
  });
  await knex.schema.alterTable('sales_lines', (t) => {
    t.boolean('prepaid').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sales_lines', (t) => {
    t.dropColumn('prepaid');
  });
  await knex.schema.alterTable('students', (t) => {
    t.dropColumn('default_photo_id');
  });
  await knex.schema.alterTable('order_packages', (t) => {
    t.dropIndex(['prepaid', 'poses_chosen_by']);
    t.dropColumn('prepaid');
    t.dropColumn('poses_chosen_by');
    t.dropColumn('poses_chosen_at');
    t.dropColumn('album_id');
    t.dropColumn('no_photo_at');
  });
}
