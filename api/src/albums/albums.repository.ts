import type { Knex } from 'knex';
import { runner, type Tx } from '../db/database';
import { insertedId, now } from '../db/knex';

export interface AlbumRecord {
  id: number;
  schoolId: number;
  name: string;
  hasPassword: boolean;
  photoCount: number;
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
}

function toRecord(row: AlbumSummaryRow): AlbumRecord {
  return {
    id: Number(row.id),
    schoolId: Number(row.school_id),
    name: row.name,
    hasPassword: Number(row.has_password) === 1,
    photoCount: Number(row.photo_count),
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

    async schoolExists(schoolId: number, tx?: Tx): Promise<boolean> {
      return Boolean(await runner(knex, tx)('schools').where({ id: schoolId }).first('id'));
    },

    async passwordHash(id: number, tx?: Tx): Promise<string | null> {
      const row = (await runner(knex, tx)('albums').where({ id }).first('password_hash')) as { password_hash: string | null } | undefined;
      return row?.password_hash ?? null;
    },

    async insert(input: { schoolId: number; name: string; passwordHash: string | null }, tx?: Tx): Promise<number> {
      return insertedId(
        await runner(knex, tx)('albums').insert({
          school_id: input.schoolId,
          name: input.name,
          password_hash: input.passwordHash,
          created_at: now(),
        }),
      );
    },

    async update(id: number, changes: { name?: string; passwordHash?: string | null }, tx?: Tx): Promise<void> {
      const row: Record<string, unknown> = {};
      if (changes.name !== undefined) row.name = changes.name;
      if (changes.passwordHash !== undefined) row.password_hash = changes.passwordHash;
      if (Object.keys(row).length > 0) await runner(knex, tx)('albums').where({ id }).update(row);
    },

    /** The class and its photo rows (the files are the caller's to remove, after commit). */
    async deleteWithPhotos(id: number, tx?: Tx): Promise<void> {
      const db = runner(knex, tx);
      await db('photos').where({ album_id: id }).delete();
      await db('albums').where({ id }).delete();
    },

    /** Every class of the school and their photo rows. */
    async deleteAllOfSchool(schoolId: number, tx?: Tx): Promise<void> {
      const db = runner(knex, tx);
      await db('photos').whereIn('album_id', db('albums').where({ school_id: schoolId }).select('id')).delete();
      await db('albums').where({ school_id: schoolId }).delete();
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
