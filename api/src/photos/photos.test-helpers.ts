import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client, type TestServer } from '../../test/harness';
import { insertedId } from '../db/knex';

/** Fixtures for the photos and images suites: rows straight into the database, files as multipart. */

const tag = () => randomBytes(4).toString('hex');

export async function insertSchoolAndAlbum(server: TestServer, options: { classPassword?: boolean } = {}) {
  const { knex } = server.runtime;
  const t = tag();
  const schoolId = insertedId(
    await knex('schools').insert({
      name: `School ${t}`,
      slug: `school-${t}`,
      password_hash: 'not-used-by-these-tests',
      contact_email: `office-${t}@school.example`,
      created_at: Date.now(),
    }),
  );
  const albumId = insertedId(
    await knex('albums').insert({
      school_id: schoolId,
      name: `Class ${t}`,
      password_hash: options.classPassword ? 'class-password-hash' : null,
      created_at: Date.now(),
    }),
  );
  return { schoolId, albumId, schoolName: `School ${t}`, albumName: `Class ${t}` };
}

/** A signed-in parent: staff endpoints must refuse it with 403. */
export async function customerClient(server: TestServer): Promise<Client> {
  const id = insertedId(
    await server.runtime.knex('customers').insert({
      email: `parent-${tag()}@example.test`,
      password_hash: null,
      first_name: 'Pat',
      last_name: 'Parent',
      created_at: Date.now(),
    }),
  );
  return new Client(server.url, server.runtime.tokens.signCustomer({ id }));
}

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
