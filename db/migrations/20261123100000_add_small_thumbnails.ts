import type { Knex } from 'knex';

/**
 * The small thumbnail (320 px) the gallery grid asks for on a phone or with Save-Data. Empty for
 * photos stored before it existed until the backfill (npm run media:backfill, also run in the
 * background at start) makes it; until then the full thumbnail is served in its place.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('photos', (t) => {
    t.integer('small_thumb_width').unsigned().nullable();
    t.integer('small_thumb_height').unsigned().nullable();
    t.string('small_thumb_etag', 64).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('photos', (t) => {
    t.dropColumn('small_thumb_width');
    t.dropColumn('small_thumb_height');
    t.dropColumn('small_thumb_etag');
  });
}
