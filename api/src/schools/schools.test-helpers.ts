import { randomBytes } from 'node:crypto';
import { Client, type TestServer } from '../../test/harness';
import { insertedId } from '../db/knex';

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
  return res.body as { id: number; name: string; slug: string };
}

export async function createAlbum(staff: Client, schoolId: number, name: string, password?: string) {
  const res = await staff.post('/api/albums', { name, schoolId, password });
  if (res.status !== 201) throw new Error(`class not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number; name: string; schoolId: number; hasPassword: boolean };
}

/** A client holding a customer token: staff routes must answer it with 403. */
export async function customerClient(server: TestServer): Promise<Client> {
  const id = insertedId(
    await server.runtime.knex('customers').insert({
      email: `parent-${unique()}@example.test`,
      password_hash: null,
      first_name: 'Pat',
      last_name: 'Parent',
      created_at: Date.now(),
    }),
  );
  return new Client(server.url, server.runtime.tokens.signCustomer({ id }));
}

/** Photo rows without files: enough for counts and deletes (removing a missing file is fine). */
export async function insertPhotos(server: TestServer, albumId: number, howMany: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < howMany; i++) {
    const key = randomBytes(16).toString('hex');
    keys.push(key);
    await server.runtime.knex('photos').insert({
      album_id: albumId,
      filename: `${key}.jpg`,
      storage_key: key,
      original_name: `IMG_${1000 + i}.JPG`,
      original_number: String(1000 + i),
      file_size: 1234,
      mime_type: 'image/jpeg',
      width: 60,
      height: 40,
      thumb_width: 60,
      thumb_height: 40,
      thumb_etag: 'etag',
      preview_etag: 'etag',
      created_at: Date.now(),
    });
  }
  return keys;
}

export async function insertOrder(
  server: TestServer,
  schoolId: number,
  fields: { totalThebe?: number; orderStatus?: string; paymentStatus?: string } = {},
): Promise<string> {
  const id = randomBytes(5).toString('hex').toUpperCase();
  await server.runtime.knex('orders').insert({
    id,
    school_id: schoolId,
    customer_name: 'Pat Parent',
    customer_email: 'pat@example.test',
    student_name: 'Kim',
    total_thebe: fields.totalThebe ?? 2500,
    order_status: fields.orderStatus ?? 'pending',
    payment_status: fields.paymentStatus ?? 'pending',
    created_at: Date.now(),
    updated_at: Date.now(),
  });
  return id;
}
