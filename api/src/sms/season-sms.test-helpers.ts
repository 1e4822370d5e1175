/** Guardians reached by phone for the season-by-SMS suites, written as the subscribe-by-phone flow leaves them once the code was entered. */
import { expect } from 'vitest';
import { CONSENT } from '../../contract/messages';
import type { TestServer } from '../../test/harness';
import { insertedId } from '../db/knex';

export interface PhoneGuardianInput {
  phone: string;
  /** Also an address (confirmed unless `emailConfirmed` is false). */
  email?: string | null;
  emailConfirmed?: boolean;
  /** The code was entered (default true). */
  phoneConfirmed?: boolean;
  unsubscribed?: boolean;
  follows: { schoolId: number; studentId?: number | null }[];
}

export async function addPhoneGuardian(server: TestServer, input: PhoneGuardianInput): Promise<number> {
  const knex = server.runtime.knex;
  const at = Date.now();
  const confirmed = input.phoneConfirmed !== false;
  const id = insertedId(
    await knex('guardians').insert({
      email: input.email ? input.email.toLowerCase() : null,
      phone: input.phone,
      consent_version: CONSENT.version,
      consent_at: at,
      confirmed_at: input.email && input.emailConfirmed !== false ? at : null,
      phone_confirmed_at: confirmed ? at : null,
      unsubscribed_at: input.unsubscribed ? at : null,
      marketing: 0,
      created_at: at,
      updated_at: at,
    }),
  );
  const followConfirmed = confirmed || (input.email && input.emailConfirmed !== false);
  for (const follow of input.follows) {
    await knex('guardian_follows').insert({ guardian_id: id, school_id: follow.schoolId, student_id: follow.studentId ?? null, created_at: at, confirmed_at: followConfirmed ? at : null });
  }
  return Number(id);
}

/** The path a short link (`{PUBLIC_URL}/s/{token}`) redirects to, or its status when it does not. */
export async function followShortLink(server: TestServer, link: string): Promise<{ status: number; location: string | null }> {
  expect(link.startsWith(`${server.url}/s/`)).toBe(true);
  const res = await fetch(link, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location') };
}

/** The links of an SMS text, in order. */
export const linksOf = (text: string): string[] => text.match(/https?:\/\/\S+/g) ?? [];
