import type { Knex } from 'knex';
import type { Photo } from '../../contract/photos';
import type { StoredPhoto } from '../media/media.types';
import { insertedId, now, toIso, count } from '../db/knex';

export interface PhotoRow {
  id: number;
  album_id: number;
  filename: string;
  storage_key: string;
  original_name: string;
  original_number: string | null;
  student_name: string | null;
  file_size: number;
  mime_type: string;
  width: number;
  height: number;
  thumb_width: number;
  thumb_height: number;
  thumb_etag: string;
  preview_etag: string;
  created_at: number;
}

export interface AlbumRef {
  id: number;
  name: string;
  schoolId: number;
  schoolName: string;
  hasPassword: boolean;
}

export interface PhotoWithAlbum {
  photo: PhotoRow;
  album: AlbumRef;
}

export interface NewPhoto {
  albumId: number;
  originalName: string;
  originalNumber: string | null;
  studentName?: string | null;
  stored: StoredPhoto;
}

/** An allow-list of output fields: a row is never spread into a response. */
export function presentPhoto(row: PhotoRow): Photo {
  return {
    id: Number(row.id),
    filename: row.filename,
    originalName: row.original_name,
    fileSize: Number(row.file_size),
    albumId: Number(row.album_id),
    studentName: row.student_name,
    thumbnailWidth: Number(row.thumb_width),
    thumbnailHeight: Number(row.thumb_height),
    createdAt: toIso(row.created_at),
  };
}

const ALBUM_COLUMNS = {
  album_ref_id: 'albums.id',
  album_ref_name: 'albums.name',
  album_ref_password: 'albums.password_hash',
  school_ref_id: 'schools.id',
  school_ref_name: 'schools.name',
} as const;

interface AlbumColumns {
  album_ref_id: number;
  album_ref_name: string;
  album_ref_password: string | null;
  school_ref_id: number;
  school_ref_name: string;
}

function toAlbumRef(row: AlbumColumns): AlbumRef {
  return {
    id: Number(row.album_ref_id),
    name: row.album_ref_name,
    schoolId: Number(row.school_ref_id),
    schoolName: row.school_ref_name,
    hasPassword: row.album_ref_password !== null && row.album_ref_password !== '',
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
  };
}

export function createPhotoRepository(knex: Knex) {
  const withAlbum = () =>
    knex('photos').join('albums', 'albums.id', 'photos.album_id').join('schools', 'schools.id', 'albums.school_id');

  return {
    async findAlbum(albumId: number): Promise<AlbumRef | undefined> {
      const row = await knex('albums')
        .join('schools', 'schools.id', 'albums.school_id')
        .where('albums.id', albumId)
        .first<AlbumColumns | undefined>(ALBUM_COLUMNS);
      return row ? toAlbumRef(row) : undefined;
    },

    listByAlbum: (albumId: number): Promise<PhotoRow[]> => knex('photos').where({ album_id: albumId }).select<PhotoRow[]>('*'),

    async findWithAlbum(photoId: number): Promise<PhotoWithAlbum | undefined> {
      const row = await withAlbum()
        .where('photos.id', photoId)
        .first<(PhotoRow & AlbumColumns) | undefined>('photos.*', ALBUM_COLUMNS);
      return row ? { photo: row, album: toAlbumRef(row) } : undefined;
    },

    async listAllWithAlbum(): Promise<PhotoWithAlbum[]> {
      const rows = await withAlbum().orderBy('photos.id').select<(PhotoRow & AlbumColumns)[]>('photos.*', ALBUM_COLUMNS);
      return rows.map((row) => ({ photo: row, album: toAlbumRef(row) }));
    },

    findByIds: (ids: number[]): Promise<PhotoRow[]> => knex('photos').whereIn('id', ids).select<PhotoRow[]>('*'),

    /**
     * Case-insensitive on both dialects (MySQL's collation already is, SQLite's is not), exact
     * spelling first: cameras and file managers disagree on the case of extensions.
     */
    async findByOriginalName(originalName: string): Promise<PhotoRow[]> {
      const rows = await knex('photos')
        .whereRaw('lower(original_name) = ?', [originalName.toLowerCase()])
        .orderBy('id')
        .select<PhotoRow[]>('*');
      return rows.sort((a, b) => Number(b.original_name === originalName) - Number(a.original_name === originalName));
    },

    async count(): Promise<number> {
      return count(await knex('photos').count({ count: '*' }).first());
    },

    /** All rows of a batch in one transaction: a batch is in the database whole or not at all. */
    async insertMany(photos: NewPhoto[]): Promise<PhotoRow[]> {
      return knex.transaction(async (trx) => {
        const ids: number[] = [];
        for (const photo of photos) {
          ids.push(
            insertedId(
              await trx('photos').insert({
                album_id: photo.albumId,
                original_name: photo.originalName,
                original_number: photo.originalNumber,
                student_name: photo.studentName ?? null,
                created_at: now(),
                ...storedColumns(photo.stored),
              }),
            ),
          );
        }
        const rows = await trx('photos').whereIn('id', ids).select<PhotoRow[]>('*');
        const byId = new Map(rows.map((row) => [Number(row.id), row]));
        return ids.map((id) => byId.get(id)).filter((row): row is PhotoRow => row !== undefined);
      });
    },

    updateStored: (id: number, stored: StoredPhoto) => knex('photos').where({ id }).update(storedColumns(stored)),

    deleteByIds: (ids: number[]): Promise<number> => knex('photos').whereIn('id', ids).delete(),
  };
}
export type PhotoRepository = ReturnType<typeof createPhotoRepository>;
