import type { Knex } from 'knex';
import type { AccessMode } from '../../contract/student-codes';
import { isPublished, type ClassRef, type PhotoRef } from '../students/visibility';
import { photoRefOfRow } from '../photos/photos.repository';
import { createKeptReads, type KeptReads } from '../http/kept-reads';

/**
 * How long a process keeps a photo's state (its row, its class's, school's and child's) once read:
 * a change made through any process is seen by every process within this time, and by the process
 * that made it at once (docs/access.md, "The gallery cookie").
 */
export const IMAGE_STATE_MAX_AGE_MS = 1000;
/** At most this many photos' states are kept per process (a few hundred bytes each). */
const IMAGE_STATES_KEPT = 20_000;

/** What answering one image needs: its files and validators, and what the visibility rule needs. */
export interface ImageRecord {
  storageKey: string;
  mimeType: string;
  thumbEtag: string;
  previewEtag: string;
  /** Null until the small thumbnail exists (photos stored before it, not yet backfilled). */
  smallThumbEtag: string | null;
  photo: PhotoRef;
  album: ClassRef;
  /** For an archived class: the class as families saw it before it was archived; otherwise null. */
  archivedClass: ClassRef | null;
}

/** Whose orders may still show an archived class's photo: a signed-in customer, and the children a grant holds by code. */
export interface OrderingFamily {
  customerId: number | null;
  studentIds: readonly number[];
}

interface ImageRow {
  storage_key: string;
  mime_type: string;
  thumb_etag: string;
  preview_etag: string;
  small_thumb_etag: string | null;
  student_id: number | null;
  student_dnp: number | boolean | null;
  kind: string;
  in_tray: number | boolean;
  pending_review: number | boolean;
  album_id: number;
  album_password: string | null;
  album_status: string;
  album_publish_at: number | string | null;
  album_archived_at: number | string | null;
  school_id: number;
  access_mode: AccessMode;
}

/** One per database handle, so every service of a process shares it and a write forgets it. */
const keptStates = new WeakMap<Knex, KeptReads<number, ImageRow | undefined>>();

/**
 * Forgets every photo state this process keeps: called once a request that may have changed one
 * has committed (docs/access.md, "The gallery cookie").
 */
export function forgetImageStates(knex: Knex): void {
  keptStates.get(knex)?.invalidate();
}

/**
 * The image endpoints' one read: a photo by primary key with its class, school and child, every
 * join on a primary key, and only the columns an answer uses. A gallery asks for dozens of images
 * at once, so this runs far more often than any other query.
 */
export function createImagesRepository(knex: Knex) {
  // By primary key, so at most one row: no LIMIT, whose bound value makes SQLite plan the statement
  // again on every run. Built once: each image then only binds its id, where building the query
  // anew cost about as much as running it (docs/performance.md, "Serving images").
  const findSql = knex('photos as p')
    .join('albums as a', 'a.id', 'p.album_id')
    .join('schools as s', 's.id', 'a.school_id')
    .leftJoin('students as st', 'st.id', 'p.student_id')
    .where('p.id', 0)
    .select(
      'p.storage_key',
      'p.mime_type',
      'p.thumb_etag',
      'p.preview_etag',
      'p.small_thumb_etag',
      'p.student_id',
      'st.do_not_publish as student_dnp',
      'p.kind',
      'p.in_tray',
      'p.pending_review',
      'a.id as album_id',
      'a.password_hash as album_password',
      'a.status as album_status',
      'a.publish_at as album_publish_at',
      'a.archived_at as album_archived_at',
      's.id as school_id',
      's.access_mode',
    )
    .toSQL()
    .toNative().sql;

  async function read(photoId: number): Promise<ImageRow | undefined> {
    const result = (await knex.raw(findSql, [photoId])) as ImageRow[] | [ImageRow[], unknown];
    // SQLite answers the rows, MySQL the rows and their fields.
    const rows = (Array.isArray(result[0]) ? result[0] : result) as ImageRow[];
    return rows[0];
  }
  let states = keptStates.get(knex);
  if (!states) {
    // A photo not found is not kept: there is nothing to forget when it appears.
    states = createKeptReads(read, { maxAgeMs: IMAGE_STATE_MAX_AGE_MS, maxEntries: IMAGE_STATES_KEPT, keep: (row) => row !== undefined });
    keptStates.set(knex, states);
  }
  const kept = states;

  return {
    /**
     * The photo's state as read at most IMAGE_STATE_MAX_AGE_MS ago; whether its class is published
     * is decided now, from the kept row (a class opens at its publish time without a write).
     */
    async find(photoId: number): Promise<ImageRecord | undefined> {
      const row = await kept.get(photoId);
      if (!row) return undefined;
      const album: ClassRef = {
        id: Number(row.album_id),
        schoolId: Number(row.school_id),
        hasPassword: row.album_password !== null && row.album_password !== '',
        accessMode: row.access_mode,
        published: isPublished({ status: row.album_status, publishAt: row.album_publish_at === null ? null : Number(row.album_publish_at), archivedAt: row.album_archived_at }),
      };
      const archived = row.album_archived_at !== null;
      return {
        storageKey: row.storage_key,
        mimeType: row.mime_type,
        thumbEtag: row.thumb_etag,
        previewEtag: row.preview_etag,
        smallThumbEtag: row.small_thumb_etag,
        photo: photoRefOfRow(row),
        album,
        archivedClass: archived ? { ...album, published: isPublished({ status: row.album_status, publishAt: row.album_publish_at === null ? null : Number(row.album_publish_at) }) } : null,
      };
    },

    /**
     * Whether the photo is on an order of this family that is not cancelled (paid, or placed and
     * not paid yet), on a line that is still that child's (the photo was not moved since): the
     * customer's own order, or a line of a child the family holds by code.
     */
    async orderedBy(photoId: number, family: OrderingFamily): Promise<boolean> {
      if (family.customerId === null && family.studentIds.length === 0) return false;
      const [row] = await knex('order_items as i')
        .join('orders as o', 'o.id', 'i.order_id')
        .join('photos as p', 'p.id', 'i.photo_id')
        .where('i.photo_id', photoId)
        .whereNot('o.order_status', 'cancelled')
        .where((still) => still.whereNull('p.student_id').orWhereRaw('p.student_id = i.student_id'))
        .where((mine) => {
          if (family.customerId !== null) mine.orWhere('o.customer_id', family.customerId);
          if (family.studentIds.length > 0) mine.orWhereIn('i.student_id', [...family.studentIds]);
        })
        .select('i.id')
        .limit(1);
      return row !== undefined;
    },
  };
}
