import { randomBytes } from 'node:crypto';
import type { TestServer } from '../../test/harness';
import { insertedId } from '../db/knex';

/**
 * Rows the season suites need that other parts of the product create (guardians subscribe through
 * their own endpoint, built separately), written straight to the database.
 */
const db = (server: TestServer) => server.runtime.knex;

export interface GuardianInput {
  email: string;
  schoolId: number;
  /** The child followed; null (the default) follows the whole school. */
  studentId?: number | null;
  confirmed?: boolean;
  unsubscribed?: boolean;
}

/** A guardian (confirmed unless told) following a child or the school; returns the guardian's id. */
export async function addGuardian(server: TestServer, input: GuardianInput): Promise<number> {
  const at = Date.now();
  const existing = (await db(server)('guardians').where({ email: input.email }).first('id')) as { id: number } | undefined;
  const id =
    existing?.id ??
    insertedId(
      await db(server)('guardians').insert({
        email: input.email,
        consent_version: '2026-11-27',
        consent_at: at,
        confirmed_at: input.confirmed === false ? null : at,
        unsubscribed_at: input.unsubscribed ? at : null,
        marketing: 0,
        created_at: at,
        updated_at: at,
      }),
    );
  await db(server)('guardian_follows').insert({ guardian_id: id, school_id: input.schoolId, student_id: input.studentId ?? null, created_at: at });
  return Number(id);
}

/** An address that unsubscribed without following anything (e.g. a class list's guardian address). */
export async function addUnsubscribed(server: TestServer, email: string): Promise<void> {
  const at = Date.now();
  await db(server)('guardians').insert({ email, consent_version: '2026-11-27', consent_at: at, unsubscribed_at: at, marketing: 0, created_at: at, updated_at: at });
}

/** A child on the class list, with the class list's guardian address if given; returns its id. */
export async function addStudent(server: TestServer, albumId: number, name: string, guardianEmail: string | null = null): Promise<number> {
  const at = Date.now();
  return insertedId(
    await db(server)('students').insert({ album_id: albumId, name, guardian_email: guardianEmail, code: randomBytes(6).toString('hex').toUpperCase().slice(0, 8), created_at: at, updated_at: at }),
  );
}

/** Dates a class's publication and its photos' upload, as if done at `at`. */
export async function publishedAt(server: TestServer, albumId: number, at: number): Promise<void> {
  await db(server)('albums').where({ id: albumId }).update({ status: 'published', published_at: at });
  await db(server)('photos').where({ album_id: albumId }).update({ created_at: at });
}

export async function setStatus(server: TestServer, albumId: number, status: 'draft' | 'published'): Promise<void> {
  await db(server)('albums').where({ id: albumId }).update({ status });
}

export interface OutboxRow {
  id: number;
  kind: string;
  recipient: string;
  status: string;
  not_before: number;
  school_id: number | null;
  dedupe_key: string | null;
  subject: string;
}

export async function outboxRows(server: TestServer, where: Record<string, unknown>): Promise<OutboxRow[]> {
  const rows = (await db(server)('outbox_messages').where(where).orderBy('id').select('id', 'kind', 'recipient', 'status', 'not_before', 'school_id', 'dedupe_key', 'subject')) as OutboxRow[];
  return rows.map((row) => ({ ...row, not_before: Number(row.not_before) }));
}

export async function staffEmail(server: TestServer, staffId: number): Promise<string> {
  const row = (await db(server)('staff').where({ id: staffId }).first('email')) as { email: string };
  return row.email;
}

/** An order row of the school by `email`, placed at `createdAt`, paid or not; returns its id. */
export async function orderBy(server: TestServer, schoolId: number, email: string, createdAt: number, totalThebe: number, paid: boolean): Promise<string> {
  const id = randomBytes(5).toString('hex').toUpperCase();
  await db(server)('orders').insert({
    id,
    school_id: schoolId,
    customer_name: 'Pat Parent',
    customer_email: email,
    student_name: 'Kim',
    total_thebe: totalThebe,
    order_status: paid ? 'paid' : 'pending',
    payment_status: paid ? 'completed' : 'pending',
    created_at: createdAt,
    updated_at: createdAt,
  });
  return id;
}
