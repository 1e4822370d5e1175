import type { Knex } from 'knex';

/**
 * Whose photo a line is, for the family (docs/access.md, "Whose photo it is"): a family is told a
 * line's child (its id and roster name) only when it held that child by code when it placed the
 * order. The order's later readers (the browser that placed it, the signed-in customer, the
 * confirmation e-mail) follow what it held then, so it is written on the line:
 *
 * - order_items.child_held, order_packages.child_held: the placing family held the line's child
 *   (`student_id`) by code, or staff placed the order. False for a group photo.
 *
 * Orders placed before: in a `student_codes` school a family could only order its held children's
 * photos, so those lines are marked held; in a `school_password` school what the family held was
 * not recorded, so none is (its lines show no child to the family; staff still see every name).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('order_items', (t) => {
    t.boolean('child_held').notNullable().defaultTo(false);
  });
  await knex.schema.alterTable('order_packages', (t) => {
    t.boolean('child_held').notNullable().defaultTo(false);
  });
  const codeSchoolOrders = knex('orders as o').join('schools as s', 's.id', 'o.school_id').where('s.access_mode', 'student_codes').select('o.id');
  await knex('order_items').whereNotNull('student_id').whereIn('order_id', codeSchoolOrders).update({ child_held: true });
  await knex('order_packages').whereNotNull('student_id').whereIn('order_id', codeSchoolOrders.clone()).update({ child_held: true });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('order_packages', (t) => {
    t.dropColumn('child_held');
  });
  await knex.schema.alterTable('order_items', (t) => {
    t.dropColumn('child_held');
  });
}
