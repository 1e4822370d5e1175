import { createHash } from 'node:crypto';
import path from 'node:path';
import type { ObjectStorage } from './object-storage';
import { createFileStorage } from './file-storage';

export interface MigrationReport {
  /** Objects in the source folder. */
  objects: number;
  bytes: number;
  copied: number;
  /** Already in the target with the same content: left as they were. */
  present: number;
  /** Keys that could not be copied or did not read back the same. */
  failed: { key: string; reason: string }[];
}

export interface MigrationOptions {
  /** Copies running at once. */
  concurrency?: number;
  /** Compare only; copy nothing. */
  dryRun?: boolean;
  onProgress?: (done: number, total: number) => void;
}

async function digest(storage: ObjectStorage, key: string): Promise<{ sha256: string; size: number } | null> {
  const object = await storage.open(key, { highWaterMark: 1024 * 1024 });
  if (!object) return null;
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of object.stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

/**
 * Copies every object of a storage folder into another store (a bucket), then reads each one back
 * from the target and compares its SHA-256 with the source's: an object counts only once it
 * verifies. Objects already there with the same content are left alone, so the command can be
 * run again after an interruption, and once more just before switching STORAGE_URL.
 */
export async function migrateStorage(sourceDir: string, target: ObjectStorage, options: MigrationOptions = {}): Promise<MigrationReport> {
  const source = createFileStorage(sourceDir);
  const keys: { key: string; size: number }[] = [];
  for await (const item of source.list()) keys.push(item);
  keys.sort((a, b) => a.key.localeCompare(b.key));
  const report: MigrationReport = { objects: keys.length, bytes: keys.reduce((sum, item) => sum + item.size, 0), copied: 0, present: 0, failed: [] };
  let next = 0;
  let done = 0;

  async function copyOne(key: string): Promise<void> {
    const original = await digest(source, key);
    if (!original) throw new Error('vanished from the source while copying');
    const existing = await target.stat(key);
    if (existing && existing.size === original.size) {
      const there = await digest(target, key);
      if (there?.sha256 === original.sha256) {
        report.present++;
        return;
      }
    }
    if (options.dryRun) throw new Error(existing ? 'differs in the target' : 'missing in the target');
    await target.putFile(key, path.join(sourceDir, ...key.split('/')), { contentType: CONTENT_TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream' });
    const copy = await digest(target, key);
    if (!copy) throw new Error('not found in the target after copying');
    if (copy.sha256 !== original.sha256 || copy.size !== original.size) throw new Error('reads back different from the source');
    report.copied++;
  }

  async function worker(): Promise<void> {
    for (let item = keys[next++]; item; item = keys[next++]) {
      try {
        await copyOne(item.key);
      } catch (err) {
        report.failed.push({ key: item.key, reason: err instanceof Error ? err.message : String(err) });
      }
      options.onProgress?.(++done, keys.length);
    }
  }

  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  report.failed.sort((a, b) => a.key.localeCompare(b.key));
  return report;
}
