import { randomBytes } from 'node:crypto';
import type { Client } from '../../test/harness';
import { insertPhotoRows } from '../../test/fixtures';

/** Fixtures shared by the schools, albums, price-lists and dashboard API suites. */

export const SCHOOL_PASSWORD = 'open-sesame';

let counter = 0;
const unique = () => `${++counter}${randomBytes(2).toString('hex')}`;

export function schoolInput(overrides: Record<string, unknown> = {}) {
  const tag = unique();
  return {
    name: `Test School ${tag}`,
    slug: `test-school-${tag}`,
    password: SCHOOL_PASSWORD,
    contactEmail: `office-${tag}@school.example`,
    ...overrides,
  };
}

export async function createSchool(staff: Client, overrides: Record<string, unknown> = {}) {
  const res = await staff.post('/api/schools', schoolInput(overrides));
  if (res.status !== 201) throw new Error(`school not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number; name: string; slug: string; contactEmail: string };
}

export async function createAlbum(staff: Client, schoolId: number, name: string, password?: string) {
  const res = await staff.post('/api/albums', { name, schoolId, password });
  if (res.status !== 201) throw new Error(`class not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number; name: string; schoolId: number; hasPassword: boolean };
}

export { customerClient, insertOrder } from '../../test/fixtures';

/** Photo rows without files: enough for counts and deletes (removing a missing file is fine). */
export const insertPhotos = insertPhotoRows;
