import type { Knex } from 'knex';

/**
 * Packages, coupons and family pricing (docs/packages-and-coupons.md):
 *
 * - price_list_packages / price_list_package_items: a package of a price list, its price and its
 *   contents (price list items and how many of each); `max_poses` limits how many different photos
 *   fill it (null: no limit). A package keeps its id while its name stays, like a product.
 * - price_lists.sibling_percent / sibling_max_children: the family discount (null: none): the
 *   second and later children of one order get `sibling_percent` off their lines, up to
 *   `sibling_max_children` children in all.
 * - coupons: a code for one school (school_id) or all (null); `kind` percent (value: 1-100) or
 *   amount (value: thebe); dates are Botswana days, inclusive; `max_uses` null is unlimited;
 *   `once_per` order | email | child. `uses_held` counts unpaid orders holding a use, `uses_paid`
 *   paid ones: a use is taken by a conditional update (held + paid < max), so concurrent checkouts
 *   never take more than there are.
 * - coupon_redemptions: one per order using a coupon (order_id unique); `once_key` is the lower-cased
 *   e-mail for a once-per-e-mail coupon (unique per coupon, nulls apart), `paid_at` once paid.
 *   coupon_redemption_children: the children of a once-per-child coupon's order (unique per coupon).
 *   An order cancelled unpaid gives its use back (its rows are deleted).
 * - orders: the pricing as placed, in thebe: subtotal (the lines before discounts), the sibling
 *   discount, the coupon's code and discount; total_thebe stays what is charged. Null subtotal:
 *   an order from before, whose subtotal is its total.
 * - order_packages: a package line of an order as placed (name, price, the value of its contents);
 *   its contents are order_items rows with order_package_id set and no price of their own.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('price_list_packages', (t) => {
    t.increments('id').primary();
    t.integer('price_list_id').unsigned().notNullable().references('id').inTable('price_lists').onDelete('CASCADE');
    t.string('name', 120).notNullable();
    t.string('description', 500).notNullable().defaultTo('');
    t.integer('price_thebe').notNullable();
    t.integer('max_poses').nullable();
    t.integer('position').notNullable().defaultTo(0);
    t.index(['price_list_id', 'position']);
  });
  await knex.schema.createTable('price_list_package_items', (t) => {
    t.increments('id').primary();
    t.integer('package_id').unsigned().notNullable().references('id').inTable('price_list_packages').onDelete('CASCADE');
    t.integer('price_list_item_id').unsigned().notNullable().references('id').inTable('price_list_items').onDelete('CASCADE');
    t.integer('quantity').notNullable();
    t.integer('position').notNullable().defaultTo(0);
    t.index(['package_id', 'position']);
  });
  await knex.schema.alterTable('price_lists', (t) => {
    t.integer('sibling_percent').nullable();
    t.integer('sibling_max_children').nullable();
  });
  await knex.schema.createTable('coupons', (t) => {
    t.increments('id').primary();
    t.string('code', 40).notNullable().unique();
    t.integer('school_id').unsigned().nullable().references('id').inTable('schools').onDelete('CASCADE');
    t.string('kind', 10).notNullable();
    t.integer('value').notNullable();
    t.integer('min_order_thebe').nullable();
    t.string('starts_on', 10).nullable();
    t.string('ends_on', 10).nullable();
    t.integer('max_uses').nullable();
    t.string('once_per', 10).notNullable().defaultTo('order');
    t.integer('excludes_packages').notNullable().defaultTo(0);
    t.integer('uses_held').notNullable().defaultTo(0);
    t.integer('uses_paid').notNullable().defaultTo(0);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['school_id']);
  });
  await knex.schema.createTable('coupon_redemptions', (t) => {
    t.increments('id').primary();
    t.integer('coupon_id').unsigned().notNullable().references('id').inTable('coupons').onDelete('CASCADE');
    t.string('order_id', 16).notNullable().unique().references('id').inTable('orders').onDelete('CASCADE');
    t.string('once_key', 254).nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('paid_at').nullable();
    t.unique(['coupon_id', 'once_key']);
  });
  await knex.schema.createTable('coupon_redemption_children', (t) => {
    t.increments('id').primary();
    t.integer('coupon_id').unsigned().notNullable().references('id').inTable('coupons').onDelete('CASCADE');
    t.integer('student_id').unsigned().notNullable();
    t.string('order_id', 16).notNullable().references('id').inTable('orders').onDelete('CASCADE');
    t.unique(['coupon_id', 'student_id']);
    t.index(['order_id']);
  });
  await knex.schema.alterTable('orders', (t) => {
    t.integer('subtotal_thebe').nullable();
    t.integer('sibling_discount_thebe').notNullable().defaultTo(0);
    t.integer('coupon_id').unsigned().nullable().references('id').inTable('coupons').onDelete('SET NULL');
    t.string('coupon_code', 40).nullable();
    t.integer('coupon_discount_thebe').notNullable().defaultTo(0);
  });
  await knex.schema.createTable('order_packages', (t) => {
    t.increments('id').primary();
    t.string('order_id', 16).notNullable().references('id').inTable('orders').onDelete('CASCADE');
    t.integer('package_id').unsigned().nullable();
    t.string('name', 120).notNullable();
    t.integer('quantity').notNullable();
    t.integer('unit_thebe').notNullable();
    t.integer('total_thebe').notNullable();
    /** What the contents cost as single products when the order was placed ("Save P X"). */
    t.integer('items_value_thebe').notNullable();
    t.integer('student_id').unsigned().nullable();
    t.index(['order_id']);
  });
  await knex.schema.alterTable('order_items', (t) => {
    t.integer('order_package_id').unsigned().nullable().references('id').inTable('order_packages').onDelete('CASCADE');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('order_items', (t) => {
    t.dropForeign(['order_package_id']);
    t.dropColumn('order_package_id');
  });
  await knex.schema.dropTable('order_packages');
  await knex.schema.alterTable('orders', (t) => {
    t.dropForeign(['coupon_id']);
    t.dropColumn('subtotal_thebe');
    t.dropColumn('sibling_discount_thebe');
    t.dropColumn('coupon_id');
    t.dropColumn('coupon_code');
    t.dropColumn('coupon_discount_thebe');
  });
  await knex.schema.dropTable('coupon_redemption_children');
  await knex.schema.dropTable('coupon_redemptions');
  await knex.schema.dropTable('coupons');
  await knex.schema.alterTable('price_lists', (t) => {
    t.dropColumn('sibling_percent');
    t.dropColumn('sibling_max_children');
  });
  await knex.schema.dropTable('price_list_package_items');
  await knex.schema.dropTable('price_list_packages');
}
