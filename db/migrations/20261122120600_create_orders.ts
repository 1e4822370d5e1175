import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('orders', (t) => {
    /** Random, unguessable: the id is the secret of the confirmation page (docs/access.md, "Order ids"). */
    t.string('id', 16).primary();
    t.integer('school_id').unsigned().notNullable().references('id').inTable('schools').onDelete('RESTRICT');
    t.integer('album_id').unsigned().nullable().references('id').inTable('albums').onDelete('SET NULL');
    t.string('album_name', 120).nullable();
    t.integer('customer_id').unsigned().nullable().references('id').inTable('customers').onDelete('SET NULL');
    t.string('customer_name', 150).notNullable();
    t.string('customer_email', 254).notNullable();
    t.string('customer_phone', 40).nullable();
    t.string('student_name', 150).notNullable();
    t.integer('total_thebe').notNullable();
    t.string('order_status', 30).notNullable().defaultTo('pending');
    t.string('payment_status', 20).notNullable().defaultTo('pending');
    t.string('payment_reference', 64).nullable();
    t.string('notes', 1000).nullable();
    t.string('idempotency_key', 100).nullable().unique();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['customer_id']);
    t.index(['school_id']);
    t.index(['order_status']);
    t.index(['created_at']);
  });
  await knex.schema.createTable('order_items', (t) => {
    t.increments('id').primary();
    t.string('order_id', 16).notNullable().references('id').inTable('orders').onDelete('CASCADE');
    t.integer('photo_id').unsigned().nullable().references('id').inTable('photos').onDelete('SET NULL');
    t.integer('album_id').unsigned().nullable();
    t.string('photo_name', 255).nullable();
    t.string('photo_original_number', 32).nullable();
    t.string('photo_original_name', 255).nullable();
    t.string('photo_filename', 80).nullable();
    t.string('product_type', 120).notNullable();
    t.string('product_name', 120).notNullable();
    t.string('product_description', 500).notNullable().defaultTo('');
    t.integer('quantity').notNullable();
    t.integer('unit_thebe').notNullable();
    t.integer('total_thebe').notNullable();
    t.index(['order_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('order_items');
  await knex.schema.dropTable('orders');
}
