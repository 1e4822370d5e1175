/** Fixtures for the cart and reminder suites: guardians written directly, as the subscribe endpoint would leave them. */
import { CONSENT } from '../../contract/messages';
import type { Client, TestServer } from '../../test/harness';
import { GUARDIAN_COOKIE, signGuardian } from '../outreach/guardian-cookie';

export interface GuardianInput {
  email: string;
  confirmed?: boolean;
  unsubscribed?: boolean;
  /** Schools (studentId null) or children followed. */
  follows?: { schoolId: number; studentId?: number | null }[];
}

export async function insertGuardian(server: TestServer, input: GuardianInput): Promise<number> {
  const knex = server.runtime.knex;
  const at = Date.now();
  const [id] = await knex('guardians').insert({
    email: input.email.toLowerCase(),
    consent_version: CONSENT.version,
    consent_at: at,
    confirmed_at: input.confirmed === false ? null : at,
    unsubscribed_at: input.unsubscribed ? at : null,
    created_at: at,
    updated_at: at,
  });
  const guardianId = Number(id ?? (await knex('guardians').where({ email: input.email.toLowerCase() }).first('id')).id);
  for (const follow of input.follows ?? []) {
    await knex('guardian_follows').insert({ guardian_id: guardianId, school_id: follow.schoolId, student_id: follow.studentId ?? null, created_at: at });
  }
  return guardianId;
}

/** Gives a browser the guardian cookie the subscribe flow would have set. */
export function withGuardianCookie(server: TestServer, client: Client, guardianId: number): Client {
  (client as unknown as { cookies: Map<string, string> }).cookies.set(GUARDIAN_COOKIE, signGuardian(server.config.jwtSecret, guardianId));
  return client;
}

/** Sends the queued reminders now, as if their planned time in the sending window had come. */
export async function deliverReminders(server: TestServer): Promise<void> {
  await server.runtime.knex('outbox_messages').where({ status: 'queued' }).whereIn('kind', ['abandoned_cart', 'unpaid_order']).update({ not_before: Date.now() - 1 });
  await server.runtime.services.outbox.deliverDue();
}
