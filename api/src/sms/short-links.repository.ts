import type { Connection } from '../db/knex';
import { runner, type Tx } from '../db/database';

/** The short links' table (docs/sms.md, "Short links"). */
export function createShortLinksRepository(knex: Connection) {
  return {
    async insert(row: { token: string; targetPath: string; expiresAt: number | null; createdAt: number }, tx?: Tx | null): Promise<void> {
      await runner(knex, tx)('short_links').insert({ token: row.token, target_path: row.targetPath, expires_at: row.expiresAt, created_at: row.createdAt });
    },

    /** The link's target path while it has not expired, or null. */
    async target(token: string, now: number): Promise<string | null> {
      const row = (await knex('short_links')
        .where({ token })
        .andWhere((w) => w.whereNull('expires_at').orWhere('expires_at', '>', now))
        .first('target_path')) as { target_path: string } | undefined;
      return row?.target_path ?? null;
    },

    /** Removes links that expired before `before`; how many went. */
    async deleteExpired(before: number): Promise<number> {
      return knex('short_links').whereNotNull('expires_at').andWhere('expires_at', '<', before).delete();
    },
  };
}
