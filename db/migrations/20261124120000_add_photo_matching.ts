import type { Knex } from 'knex';

/**
 * What matching at the shoot records on each photo:
 * - kind: 'photo', or 'card' for a photo of a child's QR card (never shown to families or sold);
 * - in_tray: an uploaded photo no rule could place, hidden from families until staff assign it;
 * - matched_by: 'card', 'name' or 'staff' (null for photos uploaded without matching);
 * - card_status / card_student_id: for a card, whether its code is of this class ('known'), of
 *   another class ('other_class') or of nobody ('unknown'), and whose code it is;
 * - upload_session / capture_seq / captured_at: the upload session, the client's capture-order
 *   number and the EXIF time, so a session is ordered and matched the same however its batches
 *   arrived; the unique index makes a resent batch find its photos instead of adding them twice.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('photos', (t) => {
    t.string('kind', 8).notNullable().defaultTo('photo');
    t.boolean('in_tray').notNullable().defaultTo(false);
    t.string('matched_by', 8).nullable();
    t.string('card_status', 12).nullable();
    t.integer('card_student_id').unsigned().nullable().references('id').inTable('students').onDelete('SET NULL');
    t.string('upload_session', 64).nullable();
    t.integer('capture_seq').unsigned().nullable();
    t.bigInteger('captured_at').nullable();
    t.unique(['album_id', 'upload_session', 'capture_seq'], { indexName: 'photos_session_seq_unique' });
    t.index(['card_student_id']);
    t.index(['album_id', 'in_tray']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('photos', (t) => {
    t.dropForeign(['card_student_id']);
    t.dropIndex(['card_student_id']);
    t.dropIndex(['album_id', 'in_tray']);
    t.dropUnique(['album_id', 'upload_session', 'capture_seq'], 'photos_session_seq_unique');
    t.dropColumn('kind');
    t.dropColumn('in_tray');
    t.dropColumn('matched_by');
    t.dropColumn('card_status');
    t.dropColumn('card_student_id');
    t.dropColumn('upload_session');
    t.dropColumn('capture_seq');
    t.dropColumn('captured_at');
  });
}
