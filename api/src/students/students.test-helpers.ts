import { expect } from 'vitest';
import type { Student } from '../../contract/students';
import { Client, type TestServer } from '../../test/harness';

/** Fixtures for the roster, code and privacy suites. */

export async function addStudents(staff: Client, albumId: number, names: string[]): Promise<Student[]> {
  const res = await staff.post(`/api/albums/${albumId}/students`, { students: names.map((name) => ({ name })) });
  if (res.status !== 201) throw new Error(`students not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.students as Student[];
}

export async function assignPhotos(staff: Client, photoIds: number[], studentId: number | null): Promise<void> {
  const res = await staff.put('/api/photos/student', { photoIds, studentId });
  if (res.status !== 200) throw new Error(`photos not assigned: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function setAccessMode(staff: Client, schoolId: number, accessMode: 'school_password' | 'student_codes'): Promise<void> {
  const res = await staff.patch(`/api/schools/${schoolId}`, { accessMode });
  if (res.status !== 200) throw new Error(`mode not set: ${res.status} ${JSON.stringify(res.body)}`);
}

/** A family's browser that entered these codes. */
export async function familyWith(server: TestServer, ...codes: string[]): Promise<Client> {
  const family = new Client(server.url);
  for (const code of codes) {
    const res = await family.post('/api/students/verify', { code });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return family;
}

/** POSTs a CSV roster as a spreadsheet export would arrive. */
export function postCsv(client: Client, albumId: number, csv: string, query = '') {
  return client.request('POST', `/api/albums/${albumId}/students${query}`, csv, { 'Content-Type': 'text/csv; charset=utf-8' });
}
