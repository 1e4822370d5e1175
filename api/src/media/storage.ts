import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AcceptedImageType } from '../../contract/constants';

export type StorageKind = 'originals' | 'thumbnails' | 'small-thumbnails' | 'previews';

export const EXTENSION_BY_MIME: Record<AcceptedImageType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
};

/** 128 bits from the CSPRNG: names on disk never come from the client and cannot be guessed. */
export function newStorageKey(): string {
  return randomBytes(16).toString('hex');
}

/** Keys are generated here, but a row could be tampered with: refuse anything that is not plain hex. */
export function assertStorageKey(key: string): void {
  if (!/^[a-f0-9]{16,64}$/.test(key)) throw new Error('Invalid storage key');
}

export interface Storage {
  readonly root: string;
  readonly tmpDir: string;
  readonly examplesDir: string;
  /** <root>/<kind>/<key[0..2]>/<key[2..4]>/<key>.<ext>: sharding keeps folders small with many photos. */
  filePath(kind: StorageKind, key: string, ext: string): string;
  examplePath(fileName: string): string;
  ensureLayout(): Promise<void>;
}

export function createStorage(root: string): Storage {
  const tmpDir = path.join(root, 'tmp');
  const examplesDir = path.join(root, 'examples');
  return {
    root,
    tmpDir,
    examplesDir,
    filePath(kind, key, ext) {
      assertStorageKey(key);
      return path.join(root, kind, key.slice(0, 2), key.slice(2, 4), `${key}.${ext}`);
    },
    examplePath: (fileName) => path.join(examplesDir, fileName),
    async ensureLayout() {
      for (const dir of [tmpDir, examplesDir, ...(['originals', 'thumbnails', 'small-thumbnails', 'previews'] as const).map((k) => path.join(root, k))]) {
        await fs.mkdir(dir, { recursive: true });
      }
    },
  };
}

/**
 * Writes through a temp name in the same folder and renames, so a reader never sees half a file
 * and a replaced rendition swaps in one step.
 */
export async function writeFileAtomic(target: string, data: Buffer): Promise<void> {
  await fs.mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.${randomBytes(6).toString('hex')}.part`;
  try {
    await fs.writeFile(temp, data, { flag: 'wx' });
    await fs.rename(temp, target);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
}

export async function moveFile(from: string, to: string): Promise<void> {
  await fs.mkdir(path.dirname(to), { recursive: true });
  await fs.rename(from, to);
}

/** Removal that tolerates files already gone; other errors still surface. */
export async function removeFiles(paths: string[]): Promise<void> {
  await Promise.all(paths.map((p) => fs.rm(p, { force: true })));
}

export async function fileExists(p: string): Promise<boolean> {
  try {
    await fs.access(p);
    return true;
  } catch {
    return false;
  }
}
