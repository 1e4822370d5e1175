import type { Knex } from 'knex';
import { runner, type Tx } from '../db/database';
import { bumpAccessVersion } from '../http/access-version.repository';
import { insertedId, now } from '../db/knex';
import type { AlbumStatus } from '../../contract/constants';
import { isPublished } from '../students/visibility';

export interface AlbumRecord {
  id: number;
  schoolId: number;
  name: string;
  hasPassword: boolean;
  /** Every photo of the class, cards and the tray included (what staff see). */
  photoCount: number;
  /** Photos a family of the class may be shown: no cards, nothing in the tray or waiting for review, no do-not-publish child's. */
  releasedCount: number;
  /** Photos placed by a card or a file name that wait for staff. */
  pendingReview: number;
  status: AlbumStatus;
  /** When a draft publishes itself (epoch ms), or null. */
  publishAt: number | null;
  /** Whether families may see the class now (isPublished). */
  published: boolean;
  /** Archived: hidden from families, kept for the orders that need its photos (docs/access.md, "Archived classes"). */
  archived: boolean;
}

export interface PhotoFileRecord {
  storageKey: string;
  mimeType: string;
}

interface AlbumSummaryRow {
  id: number;
  school_id: number;
  name: string;
  has_password: number | string;
  photo_count: number | string;
  released_count: number | string;
  pending_count: number | string;
  status: string;
  publish_at: number | string | null;
  archived_at: number | string | null;
}

function toRecord(row: AlbumSummaryRow): AlbumRecord {
  const status: AlbumStatus = row.status === 'draft' ? 'draft' : 'published';
  const publishAt = row.publish_at === null ? null : Number(row.publish_at);
  return {
    id: Number(row.id),
    schoolId: Number(row.school_id),
    name: row.name,
    hasPassword: Number(row.has_password) === 1,
    photoCount: Number(row.photo_count),
    releasedCount: Number(row.released_count),
    pendingReview: Number(row.pending_count),
    status,
    publishAt,
    published: isPublished({ status, publishAt, archivedAt: row.archived_at }),
    archived: row.archived_at !== null,
  };
}

const toFile = (row: { storage_key: string; mime_type: string }): PhotoFileRecord => ({ storageKey: row.storage_key, mimeType: row.mime_type });

/** The summary columns; the password hash itself never leaves this query. */
function summaryQuery(db: Knex) {
  return db('albums as a').select(
    'a.id',
    'a.school_id',
    'a.name',
    db.raw('case when a.password_hash is null then 0 else 1 end as has_password'),
    db.raw('(select count(*) from photos p where p.album_id = a.id) as photo_count'),
    db.raw(
      `(select count(*) from photos p left join students st on st.id = p.student_id
        where p.album_id = a.id and p.kind = 'photo' and p.in_tray = ? and p.pending_review = ? and (st.do_not_publish is null or st.do_not_publish = ?)) as released_count`,
      [false, false, false],
    ),
    db.raw('(select count(*) from photos p where p.album_id = a.id and p.pending_review = ?) as pending_count', [true]),
    'a.status',
    'a.publish_at',
    'a.archived_at',
  );
}

export function createAlbumRepository(knex: Knex) {
  return {
    async findById(id: number, tx?: Tx): Promise<AlbumRecord | undefined> {
      const row = (await summaryQuery(runner(knex, tx)).where('a.id', id).first()) as AlbumSummaryRow | undefined;
      return row ? toRecord(row) : undefined;
    },

    async listBySchools(schoolIds: number[], tx?: Tx): Promise<AlbumRecord[]> {
      if (schoolIds.length === 0) return [];
      const rows = (await summaryQuery(runner(knex, tx)).whereIn('a.school_id', schoolIds)) as AlbumSummaryRow[];
      return rows.map(toRecord);
    },

    /**
     * For a family holding these children (their codes): per class, the released photos it may
     * see, the children's own and the group photos, as `released_count` counts them otherwise
     * (docs/access.md, "Families see only their own").
     */
    async releasedCountsFor(albumIds: number[], studentIds: number[]): Promise<Map<number, number>> {
      if (albumIds.length === 0) return new Map();
      const rows = (await knex('photos as p')
        .leftJoin('students as st', 'st.id', 'p.student_id')
        .whereIn('p.album_id', albumIds)
        .where({ 'p.kind': 'photo', 'p.in_tray': false, 'p.pending_review': false })
        .where((own) => {
          own.whereNull('p.student_id');
          if (studentIds.length > 0) own.orWhereIn('p.student_id', studentIds);
        })
        .where((published) => published.whereNull('st.do_not_publish').orWhere('st.do_not_publish', false))
        .groupBy('p.album_id')
        .select('p.album_id', knex.raw('count(*) as n'))) as { album_id: number; n: number | string }[];
      return new Map(rows.map((row) => [Number(row.album_id), Number(row.n)]));
    },

    async schoolExists(schoolId: number, tx?: Tx): Promise<boolean> {
      return Boolean(await runner(knex, tx)('schools').where({ id: schoolId }).first('id'));
    },

    /** The password and the grant epoch it belongs to, read together (docs/access.md, "Grants end"). */
    async credential(id: number, tx?: Tx): Promise<{ passwordHash: string | null; grantEpoch: number }> {
      const row = (await runner(knex, tx)('albums').where({ id }).first('password_hash', 'grant_epoch')) as
        | { password_hash: string | null; grant_epoch: number }
        | undefined;
      return { passwordHash: row?.password_hash ?? null, grantEpoch: Number(row?.grant_epoch ?? 0) };
    },

    /** The school's access mode, or undefined for no such school. */
    async schoolAccessMode(schoolId: number, tx?: Tx): Promise<string | undefined> {
      const row = (await runner(knex, tx)('schools').where({ id: schoolId }).first('access_mode')) as { access_mode: string } | undefined;
      return row?.access_mode;
    },

    async insert(input: { schoolId: number; name: string; passwordHash: string | null; status: AlbumStatus }, tx?: Tx): Promise<number> {
      const at = now();
      return insertedId(
        await runner(knex, tx)('albums').insert({
          school_id: input.schoolId,
          name: input.name,
          password_hash: input.passwordHash,
          status: input.status,
          published_at: input.status === 'published' ? at : null,
          created_at: at,
        }),
      );
    },

    async update(
      id: number,
      changes: { name?: string; passwordHash?: string | null; status?: AlbumStatus; publishAt?: number | null; archived?: boolean },
      tx?: Tx,
    ): Promise<void> {
      const row: Record<string, unknown> = {};
      if (changes.name !== undefined) row.name = changes.name;
      if (changes.passwordHash !== undefined) {
        row.password_hash = changes.passwordHash;
        // A new (or no) password cuts off every device unlocked with the old one (docs/access.md, "Grants end").
        row.grant_epoch = runner(knex, tx).raw('grant_epoch + 1');
      }
      if (changes.status !== undefined) row.status = changes.status;
      if (changes.publishAt !== undefined) row.publish_at = changes.publishAt;
      if (changes.archived !== undefined) row.archived_at = changes.archived ? now() : null;
      if (Object.keys(row).length > 0) await runner(knex, tx)('albums').where({ id }).update(row);
      if (changes.passwordHash !== undefined) await bumpAccessVersion(knex, tx);
    },

    /** A draft set to published by hand: when it went live. */
    async markPublished(id: number, tx: Tx): Promise<void> {
      await runner(knex, tx)('albums').where({ id }).update({ published_at: now() });
    },

    /**
     * Publishes the class and releases every photo waiting for review, in one transaction. A
     * published class keeps no schedule. Returns how many photos were released.
     */
    async publish(id: number, tx: Tx): Promise<number> {
      const db = runner(knex, tx);
      const at = now();
      await db('albums').where({ id }).update({ status: 'published', publish_at: null, published_at: at });
      return Number(await db('photos').where({ album_id: id, pending_review: true }).update({ pending_review: false }));
    },

    /** Drafts whose publishAt has come, oldest first. */
    async dueToPublish(at: number, limit: number): Promise<{ id: number; publishAt: number }[]> {
      const rows = (await knex('albums').where('status', 'draft').whereNotNull('publish_at').where('publish_at', '<=', at).orderBy('publish_at').limit(limit).select('id', 'publish_at')) as {
        id: number;
        publish_at: number | string;
      }[];
      return rows.map((row) => ({ id: Number(row.id), publishAt: Number(row.publish_at) }));
    },

    /**
     * Publishes one scheduled draft if it is still a draft due now: the condition makes the change
     * happen once however many processes try. Photos waiting for review stay waiting (a schedule
     * is not a review). True when this call published it.
     */
    async publishIfDue(id: number, at: number): Promise<boolean> {
      const changed = await knex('albums')
        .where({ id, status: 'draft' })
        .whereNotNull('publish_at')
        .where('publish_at', '<=', at)
        .update({ status: 'published', published_at: knex.ref('publish_at'), publish_at: null });
      return Number(changed) === 1;
    },

    /** The class and its photo rows (the files are the caller's to remove, after commit). */
    async deleteWithPhotos(id: number, tx?: Tx): Promise<void> {
      const db = runner(knex, tx);
      await db('photos').where({ album_id: id }).delete();
      await db('albums').where({ id }).delete();
      // Its children go with it: no grant may keep them (docs/access.md, "The gallery cookie").
      await bumpAccessVersion(knex, tx);
    },

    /** Every class of the school and their photo rows. */
    async deleteAllOfSchool(schoolId: number, tx?: Tx): Promise<void> {
      const db = runner(knex, tx);
      await db('photos').whereIn('album_id', db('albums').where({ school_id: schoolId }).select('id')).delete();
      await db('albums').where({ school_id: schoolId }).delete();
      await bumpAccessVersion(knex, tx);
    },

    async photoFilesOfAlbum(albumId: number, tx?: Tx): Promise<PhotoFileRecord[]> {
      const rows = (await runner(knex, tx)('photos').where({ album_id: albumId }).select('storage_key', 'mime_type')) as {
        storage_key: string;
        mime_type: string;
      }[];
      return rows.map(toFile);
    },

    async photoFilesOfSchool(schoolId: number, tx?: Tx): Promise<PhotoFileRecord[]> {
      const rows = (await runner(knex, tx)('photos as p')
        .join('albums as a', 'a.id', 'p.album_id')
        .where('a.school_id', schoolId)
        .select('p.storage_key', 'p.mime_type')) as { storage_key: string; mime_type: string }[];
      return rows.map(toFile);
    },
  };
}
export type AlbumRepository = ReturnType<typeof createAlbumRepository>;
