import type { Knex } from 'knex';

/**
 * "Opened" over the whole season (docs/reports.md#how-the-figures-stay-fast) reads these two
 * covering indexes in order: per class, (school, class, kind) groups with each group's visitors
 * sorted; per school, (school, kind) likewise. Counting distinct visitors then streams, without
 * the two temporary B-trees (one to group, one per group for the distinct visitors) that reading
 * `gallery_visits_day` in day order needs. A range of days still reads `gallery_visits_day`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('gallery_visits', (t) => {
    t.index(['school_id', 'album_id', 'kind', 'visitor', 'day'], 'gallery_visits_class_visitors');
    t.index(['school_id', 'kind', 'visitor', 'day'], 'gallery_visits_school_visitors');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('gallery_visits', (t) => {
    t.dropIndex(['school_id', 'kind', 'visitor', 'day'], 'gallery_visits_school_visitors');
    t.dropIndex(['school_id', 'album_id', 'kind', 'visitor', 'day'], 'gallery_visits_class_visitors');
  });
}
