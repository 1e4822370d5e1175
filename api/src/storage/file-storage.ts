import fs from 'node:fs/promises';
import { constants as FS, readFile } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { assertObjectKey, type ObjectStorage } from './object-storage';
import { heldPath, holdActive } from './backup-hold';

/** The scratch folder inside the storage root: never listed, never migrated. */
export const SCRATCH_FOLDER = 'tmp';
const PART_SUFFIX = '.part';
/** Tries of one move into the held folder while that folder is being removed under it. */
const HOLD_MOVE_ATTEMPTS = 5;

/**
 * Objects as files under one folder (`data/storage` by default): `<root>/<key>`. Writes go
 * through a temp name in the target folder and a rename, so a reader never sees half a file and
 * a replaced object swaps in one step.
 */
export function createFileStorage(root: string): ObjectStorage {
  const scratchDir = path.join(root, SCRATCH_FOLDER);
  const pathOf = (key: string) => {
    assertObjectKey(key);
    return path.join(root, ...key.split('/'));
  };

  async function writeAtomic(target: string, write: (temp: string) => Promise<void>): Promise<void> {
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}${PART_SUFFIX}`;
    try {
      await write(temp);
      await fs.rename(temp, target);
    } catch (err) {
      await fs.rm(temp, { force: true });
      throw err;
    }
  }

  /**
   * Moves an object into the held folder. The backup removes that folder when it releases its
   * hold, possibly while this runs, so a folder made here can vanish before the rename: then
   * the move is tried again while the object is still in place.
   */
  async function hold(key: string): Promise<void> {
    const from = pathOf(key);
    const to = heldPath(scratchDir, key);
    for (let attempt = 1; ; attempt++) {
      try {
        await fs.mkdir(path.dirname(to), { recursive: true });
        await fs.rename(from, to);
        return;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
        // Already moved or removed by another removal of the same object: done.
        if (!(await fs.stat(from).then(() => true, () => false))) return;
        if (attempt >= HOLD_MOVE_ATTEMPTS) throw err;
      }
    }
  }

  return {
    kind: 'file',
    location: `file:${root}`,
    scratchDir,

    async ensureReady() {
      await fs.mkdir(scratchDir, { recursive: true });
    },

    async putFile(key, localPath, options) {
      const target = pathOf(key);
      if (options.move) {
        await fs.mkdir(path.dirname(target), { recursive: true });
        try {
          // The scratch folder is on the same file system: a rename, byte for byte and without a copy.
          await fs.rename(localPath, target);
          return;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
        }
        await writeAtomic(target, (temp) => fs.copyFile(localPath, temp));
        await fs.rm(localPath, { force: true });
        return;
      }
      await writeAtomic(target, (temp) => fs.copyFile(localPath, temp));
    },

    async putBuffer(key, data) {
      await writeAtomic(pathOf(key), (temp) => fs.writeFile(temp, data, { flag: 'wx' }));
    },

    read(key) {
      const file = pathOf(key);
      // The callback API: no FileHandle or promise machinery per image, which a gallery asking for
      // forty thumbnails at once would pay forty times.
      return new Promise((resolve, reject) =>
        readFile(file, (err, data) => {
          if (!err) resolve(data);
          else if (err.code === 'ENOENT') resolve(null);
          else reject(err);
        }),
      );
    },

    async open(key, options = {}) {
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(pathOf(key), 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
      try {
        const { size } = await handle.stat();
        return { stream: handle.createReadStream({ autoClose: true, highWaterMark: options.highWaterMark }), size };
      } catch (err) {
        await handle.close();
        throw err;
      }
    },

    async stat(key) {
      try {
        const stat = await fs.stat(pathOf(key));
        return stat.isFile() ? { size: stat.size } : null;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },

    async remove(keys) {
      if (keys.length > 0 && (await holdActive(scratchDir))) {
        // A backup is copying this store: the object waits in the scratch folder until it is done
        // (docs/operations.md, "Backup and restore").
        const moves = await Promise.allSettled(keys.map((key) => hold(key)));
        // The backup may have ended while these moved: then nothing will clear them, so they go
        // now, and so does any object whose move failed because the held folder was going away.
        if (!(await holdActive(scratchDir))) {
          await Promise.all(keys.map(async (key) => Promise.all([fs.rm(heldPath(scratchDir, key), { force: true }), fs.rm(pathOf(key), { force: true })])));
          return;
        }
        const failed = moves.find((move) => move.status === 'rejected');
        if (failed) throw failed.reason;
        return;
      }
      await Promise.all(keys.map((key) => fs.rm(pathOf(key), { force: true })));
    },

    async *list(prefix = '') {
      let entries;
      try {
        entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw err;
      }
      for (const entry of entries) {
        if (!entry.isFile() || entry.name.endsWith(PART_SUFFIX)) continue;
        const key = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
        if (key.startsWith(`${SCRATCH_FOLDER}/`) || !key.startsWith(prefix)) continue;
        const stat = await fs.stat(path.join(entry.parentPath, entry.name)).catch(() => null);
        if (stat) yield { key, size: stat.size };
      }
    },

    async check() {
      const stat = await fs.stat(root);
      if (!stat.isDirectory()) throw new Error(`${root} is not a folder`);
      await fs.access(root, FS.R_OK | FS.W_OK);
    },

    close() {},
  };
}
