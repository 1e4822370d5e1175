import type { Tx } from '../db/database';
import type { Logger } from '../logger';
import type { MediaService, PhotoFiles } from '../media/media.types';
import { createFileDeletionRepository, type FileDeletionRecord } from './file-deletions.repository';
import type { Deps } from '../deps';

/** The first retry after a failed removal; each later one waits twice as long, up to RETRY_MAX_MS. */
export const RETRY_FIRST_MS = 60_000;
export const RETRY_MAX_MS = 6 * 3600_000;
/** Removals the job tries per run. */
const PER_RUN = 100;

/**
 * Removing a photo's files from storage never gets lost (docs/images.md, "Deleting photos"): the
 * files are queued in the transaction that deletes their rows, removed right after it commits, and
 * a removal that fails (storage down, a permission) stays queued and is retried by the maintenance
 * job, with growing waits, until storage confirms. An erased child's photos are therefore gone from
 * storage, not only from the database.
 */
export function createFileDeletions(deps: Pick<Deps, 'knex'> & { media: Pick<MediaService, 'removePhoto'>; logger: Logger }) {
  const repo = createFileDeletionRepository(deps.knex);

  async function attempt(entry: FileDeletionRecord, at: number): Promise<boolean> {
    try {
      await deps.media.removePhoto(entry);
      await repo.done(entry.id);
      return true;
    } catch (err) {
      const attempts = entry.attempts + 1;
      const wait = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.min(attempts - 1, 20));
      await repo.failed(entry.id, attempts, err instanceof Error ? err.message : String(err), at + wait);
      deps.logger.warn({ err, storageKey: entry.storageKey, attempts }, 'could not remove photo files; will retry');
      return false;
    }
  }

  return {
    /** Queues the files of rows this transaction deletes. */
    queue: (files: readonly PhotoFiles[], tx?: Tx, at: number = Date.now()): Promise<void> => repo.enqueue(files, at, tx),

    /** After the commit: removes these queued files now; a failure stays queued for the job. */
    async removeQueued(files: readonly PhotoFiles[], at: number = Date.now()): Promise<void> {
      for (const entry of await repo.forKeys(files.map((file) => file.storageKey))) await attempt(entry, at);
    },

    /** The job: tries every removal that is due. Returns how many were removed and how many still fail. */
    async retryDue(at: number = Date.now()): Promise<{ removed: number; failed: number }> {
      let removed = 0;
      let failed = 0;
      for (const entry of await repo.due(at, PER_RUN)) {
        if (await attempt(entry, at)) removed += 1;
        else failed += 1;
      }
      return { removed, failed };
    },

    pending: (): Promise<number> => repo.count(),
  };
}
export type FileDeletions = ReturnType<typeof createFileDeletions>;
