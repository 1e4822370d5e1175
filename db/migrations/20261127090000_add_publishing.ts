import type { Knex } from 'knex';

/**
 * Publish when ready (docs/access.md, "Draft and published classes"):
 * - albums.status: 'draft' (families see nothing of the class) or 'published'. Every class that
 *   exists already is published, so nothing changes for a school that is selling;
 * - albums.publish_at: when a draft publishes itself (epoch ms), null for by hand;
 * - albums.published_at: when it was last published (epoch ms);
 * - photos.pending_review: placed by a card or a file name while the class was live or scheduled,
 *   and not yet released by staff: families do not see it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('albums', (t) => {
    t.string('status', 12).notNullable().defaultTo('published');
    t.bigInteger('publish_at').nullable();
    t.bigInteger('published_at').nullable();
    t.index(['status', 'publish_at'], 'albums_status_publish_at');
  });
  await knex.schema.alterTable('photos', (t) => {
    t.boolean('pending_review').notNullable().defaultTo(false);
    t.index(['album_id', 'pending_review'], 'photos_album_pending');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('photos', (t) => {
    t.dropIndex(['album_id', 'pending_review'], 'photos_album_pending');
    t.dropColumn('pending_review');
  });
  await knex.schema.alterTable('albums', (t) => {
    t.dropIndex(['status', 'publish_at'], 'albums_status_publish_at');
    t.dropColumn('status');
    t.dropColumn('publish_at');
    t.dropColumn('published_at');
  });
}
