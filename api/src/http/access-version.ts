/**
 * The access version (docs/access.md, "The gallery cookie"): one number in the database
 * (`access_version`) that rises, in the same transaction, with every change that can take a
 * gallery grant away: a school's or a class's grant epoch, a child's code, a child, class or school
 * deleted. A process keeps the grants it resolved under the version it read, and reads the version
 * again at most once a second, so a change made through any process cuts access in every process
 * within one second; in the process that made it, at once (the reader is told after the commit).
 */
import { createKeptReads } from './kept-reads';

/** How old a version read may be before it is read again. */
export const ACCESS_VERSION_MAX_AGE_MS = 1000;

export interface VersionReader {
  /** The version as read at most ACCESS_VERSION_MAX_AGE_MS ago (the age counts from when the read started). */
  current(): Promise<number>;
  /** Forgets the value read so far: the next call reads again (a change this process just committed). */
  invalidate(): void;
}

/**
 * Reads through `read` at most once per `maxAgeMs`: callers within that time share the value, and
 * callers while a read is on its way share that read. A read started before an invalidate() is
 * handed to those already waiting for it but not kept.
 */
export function createVersionReader(read: () => Promise<number>, options: { maxAgeMs?: number; now?: () => number } = {}): VersionReader {
  const kept = createKeptReads(read, { maxAgeMs: options.maxAgeMs ?? ACCESS_VERSION_MAX_AGE_MS, maxEntries: 1, now: options.now });
  return { current: () => kept.get(undefined), invalidate: () => kept.invalidate() };
}
