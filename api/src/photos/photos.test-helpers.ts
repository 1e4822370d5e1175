import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { TestServer } from '../../test/harness';
import { createAlbum, createSchool } from '../../test/fixtures';

/** Helpers for the photos and images suites: a school and class from the fixtures, files as multipart. */

const tag = () => randomBytes(4).toString('hex');

export async function insertSchoolAndAlbum(server: TestServer, options: { classPassword?: boolean } = {}) {
  const t = tag();
  const school = await createSchool(server, { name: `School ${t}`, slug: `school-${t}`, passwordHash: 'not-used-by-these-tests', contactEmail: `office-${t}@school.example` });
  const albumId = await createAlbum(server, school.id, { name: `Class ${t}`, ...(options.classPassword ? { passwordHash: 'class-password-hash' } : {}) });
  return { schoolId: school.id, albumId, schoolName: `School ${t}`, albumName: `Class ${t}` };
}

/** A signed-in parent: staff endpoints must refuse it with 403. */
export { customerClient } from '../../test/fixtures';

export function photoForm(files: { name: string; bytes: Buffer; type?: string }[], fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const file of files) form.append('photos', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'image/jpeg' }), file.name);
  return form;
}

/** Files under storage, relative, excluding the temp folder's own entry. */
export async function storageFiles(server: TestServer): Promise<string[]> {
  const entries = await fs.readdir(server.storageDir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(server.storageDir, path.join(e.parentPath, e.name)));
}

export function shardedPath(server: TestServer, kind: 'originals' | 'thumbnails' | 'small-thumbnails' | 'previews', key: string, ext: string): string {
  return path.join(server.storageDir, kind, key.slice(0, 2), key.slice(2, 4), `${key}.${ext}`);
}

export async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
