import type { Knex } from 'knex';
import { runner, type Tx } from '../db/database';
import type { PhotoFiles } from '../media/media.types';

export interface FileDeletionRecord extends PhotoFiles {
  id: number;
  attempts: number;
}

/** The queue of photo files to remove from storage (docs/images.md, "Deleting photos"). */
export function createFileDeletionRepository(knex: Knex) {
  return {
    /** Queues the files, in the transaction that deletes their rows. */
    async enqueue(files: readonly PhotoFiles[], at: number, tx?: Tx): Promise<void> {
      if (files.length === 0) return;
      const rows = files.map((file) => ({ storage_key: file.storageKey, mime_type: file.mimeType, attempts: 0, created_at: at, next_attempt_at: at }));
      for (let start = 0; start < rows.length; start += 200) await runner(knex, tx)('file_deletions').insert(rows.slice(start, start + 200));
    },

    /** The queued removals of these files. */
    async forKeys(storageKeys: readonly string[]): Promise<FileDeletionRecord[]> {
      if (storageKeys.length === 0) return [];
      const rows: { id: number; storage_key: string; mime_type: string; attempts: number }[] = [];
      for (let start = 0; start < storageKeys.length; start += 500) {
        rows.push(...((await knex('file_deletions').whereIn('storage_key', storageKeys.slice(start, start + 500)).select('id', 'storage_key', 'mime_type', 'attempts')) as typeof rows));
      }
      return rows.map(toRecord);
    },

    /** Removals whose time has come, oldest first. */
    async due(at: number, limit: number): Promise<FileDeletionRecord[]> {
      const rows = (await knex('file_deletions').where('next_attempt_at', '<=', at).orderBy('next_attempt_at').orderBy('id').limit(limit).select('id', 'storage_key', 'mime_type', 'attempts')) as {
        id: number;
        storage_key: string;
        mime_type: string;
        attempts: number;
      }[];
      return rows.map(toRecord);
    },

    done: async (id: number): Promise<void> => {
      await knex('file_deletions').where({ id }).delete();
    },

    async failed(id: number, attempts: number, error: string, nextAt: number): Promise<void> {
      await knex('file_deletions').where({ id }).update({ attempts, last_error: error.slice(0, 500), next_attempt_at: nextAt });
    },

    count: async (): Promise<number> => Number(((await knex('file_deletions').count({ count: '*' }).first()) as { count: number | string } | undefined)?.count ?? 0),
  };
}
export type FileDeletionRepository = ReturnType<typeof createFileDeletionRepository>;

const toRecord = (row: { id: number; storage_key: string; mime_type: string; attempts: number }): FileDeletionRecord => ({
  id: Number(row.id),
  storageKey: row.storage_key,
  mimeType: row.mime_type,
  attempts: Number(row.attempts),
});
