import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('photos', (t) => {
    t.increments('id').primary();
    t.integer('album_id').unsigned().notNullable().references('id').inTable('albums').onDelete('CASCADE');
    /** Generated name (never the client's): <storage_key>.<ext> */
    t.string('filename', 80).notNullable();
    /** Random key; files live at <kind>/<key[0..2]>/<key[2..4]>/<key>.<ext> under STORAGE_DIR. */
    t.string('storage_key', 64).notNullable().unique();
    t.string('original_name', 255).notNullable();
    /** Frame number from the original name (IMG_0423.JPG gives 0423), for the lab. */
    t.string('original_number', 32).nullable();
    t.string('student_name', 150).nullable();
    t.integer('file_size').unsigned().notNullable();
    t.string('mime_type', 20).notNullable();
    t.integer('width').unsigned().notNullable();
    t.integer('height').unsigned().notNullable();
    t.integer('thumb_width').unsigned().notNullable();
    t.integer('thumb_height').unsigned().notNullable();
    t.string('thumb_etag', 64).notNullable();
    t.string('preview_etag', 64).notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['album_id']);
    t.index(['original_name']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('photos');
}
