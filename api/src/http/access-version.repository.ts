import type { Knex } from 'knex';
import { afterCommit, runner, type Tx } from '../db/database';
import { createVersionReader, type VersionReader } from './access-version';

/** One reader per database handle, so every service of a process shares it and a bump reaches it. */
const readers = new WeakMap<Knex, VersionReader>();

export function accessVersion(knex: Knex): VersionReader {
  let reader = readers.get(knex);
  if (!reader) {
    reader = createVersionReader(async () => {
      const row = (await knex('access_version').where({ id: 1 }).first('version')) as { version: number | string } | undefined;
      return Number(row?.version ?? 0);
    });
    readers.set(knex, reader);
  }
  return reader;
}

/**
 * Raises the access version with a change that can take a grant away, in that change's
 * transaction when there is one. This process's reader is told once the change is committed (the
 * others within a second): told before, it could read the old version again and keep it.
 */
export async function bumpAccessVersion(knex: Knex, tx?: Tx | null): Promise<void> {
  await runner(knex, tx)('access_version').where({ id: 1 }).increment('version', 1);
  const reader = accessVersion(knex);
  afterCommit(tx, () => reader.invalidate());
}
