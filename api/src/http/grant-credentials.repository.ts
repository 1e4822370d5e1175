import type { Knex } from 'knex';
import { accessVersion } from './access-version.repository';

/**
 * The credentials a gallery grant is bound to, as they are now (docs/access.md, "Grants end"): a
 * school's and a class's grant epoch, a child's code. Read when a cookie's grant is resolved, and
 * again only once the access version has changed (docs/access.md, "The gallery cookie").
 */
export interface GrantCredentialsRepository {
  /** The access version, read at most once a second (access-version.ts); without it, every request resolves afresh. */
  version?(): Promise<number>;
  schools(ids: number[]): Promise<Map<number, number>>;
  albums(ids: number[]): Promise<Map<number, number>>;
  students(ids: number[]): Promise<Map<number, string>>;
}

export function createGrantCredentialsRepository(knex: Knex): GrantCredentialsRepository {
  const epochs = async (table: 'schools' | 'albums', ids: number[]) => {
    if (ids.length === 0) return new Map<number, number>();
    const rows = (await knex(table).whereIn('id', ids).select('id', 'grant_epoch')) as { id: number; grant_epoch: number }[];
    return new Map(rows.map((row) => [Number(row.id), Number(row.grant_epoch)]));
  };
  const version = accessVersion(knex);
  return {
    version: () => version.current(),
    schools: (ids) => epochs('schools', ids),
    albums: (ids) => epochs('albums', ids),
    async students(ids) {
      if (ids.length === 0) return new Map();
      const rows = (await knex('students').whereIn('id', ids).select('id', 'code')) as { id: number; code: string }[];
      return new Map(rows.map((row) => [Number(row.id), row.code]));
    },
  };
}
