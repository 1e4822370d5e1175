import type { Knex } from 'knex';
import type { AccessMode } from '../../contract/student-codes';
import type { CardStatus } from '../../contract/matching';
import type { SmallThumbnail, StoredPhoto } from '../media/media.types';
import { isPublished, isWithheld, type PhotoRef } from '../students/visibility';
import { runner, type Tx } from '../db/database';
import { insertedId, now, toIso, count } from '../db/knex';

/** A row of the photos table, as other repositories that read it (matching) still type it. */
export interface PhotoRow {
  id: number;
  album_id: number;
  filename: string;
  storage_key: string;
  original_name: string;
  original_number: string | null;
  student_name: string | null;
  /** Null: a group photo of the class. */
  student_id: number | null;
  file_size: number;
  mime_type: string;
  width: number;
  height: number;
  thumb_width: number;
  thumb_height: number;
  thumb_etag: string;
  preview_etag: string;
  /** Null for photos stored before the small thumbnail existed, until the backfill makes it. */
  small_thumb_width: number | null;
  small_thumb_height: number | null;
  small_thumb_etag: string | null;
  created_at: number;
  /** 'photo', or 'card' for a photo of a child's QR card (never shown to families). */
  kind: string;
  /** Waiting in the unmatched tray (1/0 on MySQL). */
  in_tray: number | boolean;
  matched_by: string | null;
  card_status: string | null;
  card_student_id: number | null;
  upload_session: string | null;
  capture_seq: number | null;
  captured_at: number | string | null;
  /** Placed by a card or a file name and not yet released by staff (1/0 on MySQL). */
  pending_review: number | boolean;
  /** Joined from students: the photo's child is marked "do not publish" (1/0, or null for a group photo). */
  student_dnp?: number | boolean | null;
}

/** A photo as the services see it: its stored files as media described them, and its place in the class. */
export interface PhotoRecord
  extends Pick<StoredPhoto, 'storageKey' | 'filename' | 'fileSize' | 'width' | 'height' | 'thumbWidth' | 'thumbHeight' | 'thumbEtag' | 'previewEtag'> {
  id: number;
  albumId: number;
  originalName: string;
  originalNumber: string | null;
  studentName: string | null;
  /** Null: a group photo of the class. */
  studentId: number | null;
  mimeType: string;
  /** Null for photos stored before the small thumbnail existed, until the backfill makes it. */
  smallThumbWidth: number | null;
  smallThumbHeight: number | null;
  smallThumbEtag: string | null;
  createdAt: string;
  /** 'photo', or 'card' for a photo of a child's QR card (never shown to families). */
  kind: string;
  /** Waiting in the unmatched tray. */
  inTray: boolean;
  matchedBy: string | null;
  cardStatus: string | null;
  cardStudentId: number | null;
  uploadSession: string | null;
  captureSeq: number | null;
  capturedAt: number | null;
  /** Placed by a card or a file name and not yet released by staff: families do not see it. */
  pendingReview: boolean;
  /** The photo's child is marked "do not publish" (false for a group photo, and where not read). */
  doNotPublish: boolean;
}

const numberOrNull = (value: number | string | null | undefined): number | null => (value === null || value === undefined ? null : Number(value));

export function toPhotoRecord(row: PhotoRow): PhotoRecord {
  return {
    id: Number(row.id),
    albumId: Number(row.album_id),
    filename: row.filename,
    storageKey: row.storage_key,
    originalName: row.original_name,
    originalNumber: row.original_number,
    studentName: row.student_name,
    studentId: numberOrNull(row.student_id),
    fileSize: Number(row.file_size),
    mimeType: row.mime_type,
    width: Number(row.width),
    height: Number(row.height),
    thumbWidth: Number(row.thumb_width),
    thumbHeight: Number(row.thumb_height),
    thumbEtag: row.thumb_etag,
    previewEtag: row.preview_etag,
    smallThumbWidth: numberOrNull(row.small_thumb_width),
    smallThumbHeight: numberOrNull(row.small_thumb_height),
    smallThumbEtag: row.small_thumb_etag,
    createdAt: toIso(row.created_at),
    kind: row.kind,
    inTray: Boolean(Number(row.in_tray ?? 0)),
    matchedBy: row.matched_by,
    cardStatus: row.card_status,
    cardStudentId: numberOrNull(row.card_student_id),
    uploadSession: row.upload_session,
    captureSeq: numberOrNull(row.capture_seq),
    capturedAt: numberOrNull(row.captured_at),
    pendingReview: Boolean(Number(row.pending_review ?? 0)),
    doNotPublish: Boolean(Number(row.student_dnp ?? 0)),
  };
}

/** What the visibility rule needs to know about a photo, from a row that has these columns (the image endpoints read them). */
export const photoRefOfRow = (row: Pick<PhotoRow, 'student_id' | 'student_dnp' | 'kind' | 'in_tray' | 'pending_review'>): PhotoRef => ({
  studentId: numberOrNull(row.student_id),
  doNotPublish: Boolean(Number(row.student_dnp ?? 0)),
  withheld: isWithheld({ kind: row.kind, inTray: Boolean(Number(row.in_tray ?? 0)), pendingReview: Boolean(Number(row.pending_review ?? 0)) }),
});

export interface AlbumRef {
  id: number;
  name: string;
  schoolId: number;
  schoolName: string;
  hasPassword: boolean;
  accessMode: AccessMode;
  /** Families may see the class now (docs/access.md, "Draft and published classes"). */
  published: boolean;
}

export interface PhotoWithAlbum {
  photo: PhotoRecord;
  album: AlbumRef;
}

export interface NewPhoto {
  albumId: number;
  originalName: string;
  originalNumber: string | null;
  studentName?: string | null;
  stored: StoredPhoto;
  /** The upload session, the client's capture-order number and the EXIF time. */
  capture?: { session: string; seq: number; capturedAt: number | null };
  /** Set when the photo is of a child's QR card. */
  card?: { status: CardStatus; studentId: number | null };
  /**
   * A photo of a class with a roster waits in the tray until matching places it, so no family sees
   * it in between; one placed while the class is live also waits for review.
   */
  held?: { inTray: boolean; pendingReview: boolean };
}

const ALBUM_COLUMNS = {
  album_ref_id: 'albums.id',
  album_ref_name: 'albums.name',
  album_ref_password: 'albums.password_hash',
  school_ref_id: 'schools.id',
  school_ref_name: 'schools.name',
  school_ref_mode: 'schools.access_mode',
  album_ref_status: 'albums.status',
  album_ref_publish_at: 'albums.publish_at',
  album_ref_archived_at: 'albums.archived_at',
} as const;

interface AlbumColumns {
  album_ref_id: number;
  album_ref_name: string;
  album_ref_password: string | null;
  school_ref_id: number;
  school_ref_name: string;
  school_ref_mode: AccessMode;
  album_ref_status: string;
  album_ref_publish_at: number | string | null;
  album_ref_archived_at: number | string | null;
}

function toAlbumRef(row: AlbumColumns): AlbumRef {
  return {
    id: Number(row.album_ref_id),
    name: row.album_ref_name,
    schoolId: Number(row.school_ref_id),
    schoolName: row.school_ref_name,
    hasPassword: row.album_ref_password !== null && row.album_ref_password !== '',
    accessMode: row.school_ref_mode,
    published: isPublished({ status: row.album_ref_status, publishAt: row.album_ref_publish_at === null ? null : Number(row.album_ref_publish_at), archivedAt: row.album_ref_archived_at }),
  };
}

function storedColumns(stored: StoredPhoto) {
  return {
    filename: stored.filename,
    storage_key: stored.storageKey,
    file_size: stored.fileSize,
    mime_type: stored.mimeType,
    width: stored.width,
    height: stored.height,
    thumb_width: stored.thumbWidth,
    thumb_height: stored.thumbHeight,
    thumb_etag: stored.thumbEtag,
    preview_etag: stored.previewEtag,
    small_thumb_width: stored.smallThumbWidth,
    small_thumb_height: stored.smallThumbHeight,
    small_thumb_etag: stored.smallThumbEtag,
  };
}

export function createPhotoRepository(knex: Knex) {
  const withAlbum = () =>
    knex('photos').join('albums', 'albums.id', 'photos.album_id').join('schools', 'schools.id', 'albums.school_id');
  /** Every photo column plus whether its child may be published. */
  const withStudent = () => knex('photos').leftJoin('students', 'students.id', 'photos.student_id');
  const PHOTO_COLUMNS = ['photos.*', 'students.do_not_publish as student_dnp'] as const;
  const records = (rows: PhotoRow[]): PhotoRecord[] => rows.map(toPhotoRecord);

  return {
    async findAlbum(albumId: number): Promise<AlbumRef | undefined> {
      const row = await knex('albums')
        .join('schools', 'schools.id', 'albums.school_id')
        .where('albums.id', albumId)
        .first<AlbumColumns | undefined>(ALBUM_COLUMNS);
      return row ? toAlbumRef(row) : undefined;
    },

    listByAlbum: async (albumId: number): Promise<PhotoRecord[]> =>
      records(await withStudent().where('photos.album_id', albumId).select<PhotoRow[]>(...PHOTO_COLUMNS)),

    listByStudent: async (studentId: number): Promise<PhotoRecord[]> =>
      records(await withStudent().where('photos.student_id', studentId).select<PhotoRow[]>(...PHOTO_COLUMNS)),

    async findWithAlbum(photoId: number): Promise<PhotoWithAlbum | undefined> {
      const row = await withAlbum()
        .leftJoin('students', 'students.id', 'photos.student_id')
        .where('photos.id', photoId)
        .first<(PhotoRow & AlbumColumns) | undefined>(...PHOTO_COLUMNS, ALBUM_COLUMNS);
      return row ? { photo: toPhotoRecord(row), album: toAlbumRef(row) } : undefined;
    },

    async listAllWithAlbum(): Promise<PhotoWithAlbum[]> {
      const rows = await withAlbum().orderBy('photos.id').select<(PhotoRow & AlbumColumns)[]>('photos.*', ALBUM_COLUMNS);
      return rows.map((row) => ({ photo: toPhotoRecord(row), album: toAlbumRef(row) }));
    },

    findByIds: async (ids: number[]): Promise<PhotoRecord[]> => records(await knex('photos').whereIn('id', ids).select<PhotoRow[]>('*')),

    /** Photos of an upload session already stored under these capture numbers. */
    bySession: async (albumId: number, session: string, seqs: number[]): Promise<PhotoRecord[]> =>
      records(await knex('photos').where({ album_id: albumId, upload_session: session }).whereIn('capture_seq', seqs).select<PhotoRow[]>('*')),

    /**
     * Case-insensitive on both dialects (MySQL's collation already is, SQLite's is not), exact
     * spelling first: cameras and file managers disagree on the case of extensions.
     */
    /** The class's photos of that original name (exact case first): a restore never looks outside the class. */
    async findByOriginalName(albumId: number, originalName: string): Promise<PhotoRecord[]> {
      const rows = await knex('photos')
        .where('album_id', albumId)
        .whereRaw('lower(original_name) = ?', [originalName.toLowerCase()])
        .orderBy('id')
        .select<PhotoRow[]>('*');
      return records(rows).sort((a, b) => Number(b.originalName === originalName) - Number(a.originalName === originalName));
    },

    async count(): Promise<number> {
      return count(await knex('photos').count({ count: '*' }).first());
    },

    /**
     * All rows of a batch in one transaction (the caller's, or one of its own): a batch is in the
     * database whole or not at all.
     */
    async insertMany(photos: NewPhoto[], tx?: Tx): Promise<PhotoRecord[]> {
      const work = async (db: Knex) => {
        const ids: number[] = [];
        for (const photo of photos) {
          ids.push(
            insertedId(
              await db('photos').insert({
                album_id: photo.albumId,
                original_name: photo.originalName,
                original_number: photo.originalNumber,
                student_name: photo.studentName ?? null,
                kind: photo.card ? 'card' : 'photo',
                card_status: photo.card?.status ?? null,
                card_student_id: photo.card?.studentId ?? null,
                upload_session: photo.capture?.session ?? null,
                capture_seq: photo.capture?.seq ?? null,
                captured_at: photo.capture?.capturedAt ?? null,
                in_tray: photo.held?.inTray ?? false,
                pending_review: photo.held?.pendingReview ?? false,
                created_at: now(),
                ...storedColumns(photo.stored),
              }),
            ),
          );
        }
        const rows = await db('photos').whereIn('id', ids).select<PhotoRow[]>('*');
        const byId = new Map(rows.map((row) => [Number(row.id), row]));
        return ids.flatMap((id) => {
          const row = byId.get(id);
          return row ? [toPhotoRecord(row)] : [];
        });
      };
      return tx ? work(runner(knex, tx)) : knex.transaction(work);
    },

    async updateStored(id: number, stored: StoredPhoto): Promise<void> {
      await knex('photos').where({ id }).update(storedColumns(stored));
    },

    /** The next photos (by id, after `afterId`) that have no small thumbnail yet. */
    listLackingSmallThumbnail: async (afterId: number, limit: number): Promise<PhotoRecord[]> =>
      records(await knex('photos').whereNull('small_thumb_etag').where('id', '>', afterId).orderBy('id').limit(limit).select<PhotoRow[]>('*')),

    async setSmallThumbnail(id: number, small: SmallThumbnail): Promise<void> {
      await knex('photos').where({ id }).update({ small_thumb_width: small.width, small_thumb_height: small.height, small_thumb_etag: small.etag });
    },

    /** Staff put photos in the tray by hand: nobody's, hidden from families, and kept there when their session is matched again. */
    toTray: async (ids: number[], tx?: Tx): Promise<number> =>
      Number(await runner(knex, tx)('photos').whereIn('id', ids).update({ student_id: null, in_tray: true, matched_by: 'staff', pending_review: false })),

    deleteByIds: async (ids: number[], tx?: Tx): Promise<number> => Number(await runner(knex, tx)('photos').whereIn('id', ids).delete()),
  };
}
export type PhotoRepository = ReturnType<typeof createPhotoRepository>;
