import type { Knex } from 'knex';
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

/** The summary columns; the password hash itself never leaves this query. */
function summaryQuery(trx: Knex) {
  return trx('albums as a').select(
    'a.id',
    'a.school_id',
    'a.name',
    trx.raw('case when a.password_hash is null then 0 else 1 end as has_password'),
    trx.raw('(select count(*) from photos p where p.album_id = a.id) as photo_count'),
  );
}

export function createAlbumRepository(knex: Knex) {
  return {
    async findById(id: number, trx: Knex = knex): Promise<AlbumRecord | undefined> {
      const row = (await summaryQuery(trx).where('a.id', id).first()) as AlbumSummaryRow | undefined;
      return row ? toRecord(row) : undefined;
    },

    async listBySchools(schoolIds: number[], trx: Knex = knex): Promise<AlbumRecord[]> {
      if (schoolIds.length === 0) return [];
      const rows = (await summaryQuery(trx).whereIn('a.school_id', schoolIds)) as AlbumSummaryRow[];
      return rows.map(toRecord);
    },

    async passwordHash(id: number, trx: Knex = knex): Promise<string | null> {
      const row = (await trx('albums').where({ id }).first('password_hash')) as { password_hash: string | null } | undefined;
      return row?.password_hash ?? null;
    },

    async insert(input: { schoolId: number; name: string; passwordHash: string | null }, trx: Knex = knex): Promise<number> {
      return insertedId(
        await trx('albums').insert({
          school_id: input.schoolId,
          name: input.name,
          password_hash: input.passwordHash,
          created_at: now(),
        }),
      );
    },

    async update(id: number, changes: { name?: string; passwordHash?: string | null }, trx: Knex = knex): Promise<void> {
      const row: Record<string, unknown> = {};
      if (changes.name !== undefined) row.name = changes.name;
      if (changes.passwordHash !== undefined) row.password_hash = changes.passwordHash;
      if (Object.keys(row).length > 0) await trx('albums').where({ id }).update(row);
    },

    delete: (id: number, trx: Knex = knex) => trx('albums').where({ id }).delete(),

    async photoFilesOfAlbum(albumId: number, trx: Knex = knex): Promise<PhotoFileRecord[]> {
      const rows = (await trx('photos').where({ album_id: albumId }).select('storage_key', 'mime_type')) as {
        storage_key: string;
        mime_type: string;
      }[];
      return rows.map((row) => ({ storageKey: row.storage_key, mimeType: row.mime_type }));
    },

    async photoFilesOfSchool(schoolId: number, trx: Knex = knex): Promise<PhotoFileRecord[]> {
      const rows = (await trx('photos as p')
        .join('albums as a', 'a.id', 'p.album_id')
        .where('a.school_id', schoolId)
        .select('p.storage_key', 'p.mime_type')) as { storage_key: string; mime_type: string }[];
      return rows.map((row) => ({ storageKey: row.storage_key, mimeType: row.mime_type }));
    },
  };
}
export type AlbumRepository = ReturnType<typeof createAlbumRepository>;
