import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * While a backup copies a `file:` store, removals are held (docs/operations.md, "Backup and
 * restore"): the backup writes HOLD_FILE into the scratch folder and touches it every
 * HOLD_REFRESH_MS; the server's remove() then moves an object into HELD_FOLDER instead of
 * unlinking it, so an object the backed-up database still refers to cannot vanish before it is
 * copied. A hold not touched for HOLD_STALE_MS (a backup that died) is ignored.
 */
export const HOLD_FILE = 'backup-hold';
export const HELD_FOLDER = 'backup-held';
export const HOLD_REFRESH_MS = 5_000;
export const HOLD_STALE_MS = 60_000;

/** True while a live backup holds removals from the store whose scratch folder this is. */
export async function holdActive(scratchDir: string, at: number = Date.now()): Promise<boolean> {
  try {
    const stat = await fs.stat(path.join(scratchDir, HOLD_FILE));
    return at - stat.mtimeMs < HOLD_STALE_MS;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** Where an object removed during a hold waits, as a file path. */
export function heldPath(scratchDir: string, key: string): string {
  return path.join(scratchDir, HELD_FOLDER, ...key.split('/'));
}

/**
 * Takes the hold: removals are held from when this resolves until release(). Objects held by an
 * earlier backup that died are dropped first: their removal was wanted.
 */
export async function takeHold(scratchDir: string): Promise<{ release(): Promise<void> }> {
  await fs.mkdir(scratchDir, { recursive: true });
  await fs.rm(path.join(scratchDir, HELD_FOLDER), { recursive: true, force: true });
  const file = path.join(scratchDir, HOLD_FILE);
  await fs.writeFile(file, `${process.pid}\n`);
  const timer = setInterval(() => {
    const now = new Date();
    fs.utimes(file, now, now).catch(() => undefined);
  }, HOLD_REFRESH_MS);
  timer.unref();
  return {
    async release() {
      clearInterval(timer);
      await fs.rm(file, { force: true });
      // The held objects were removed on purpose; the backup has copied what it needed of them.
      await fs.rm(path.join(scratchDir, HELD_FOLDER), { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
