/**
 * What this browser's guardian cookie says (GET /api/guardians/me, docs/outreach.md, "The guardian
 * cookie"), asked once per browser session: the gallery's offer and the cart mirror both read it.
 * It is part of the gallery's first download, so it checks the answer's shape by hand instead of
 * with the contract's zod schema (zod would add about 15 KiB to a parent's first visit).
 */
import { queryOptions } from '@tanstack/react-query';
import type { GuardianMe } from '@contract/outreach';
import { apiRequest } from './api-client';
import { readJson, removeKeys, writeJson } from './storage';

const SESSION_KEY = 'guardianMe';
export const guardianKeys = { me: ['guardians', 'me'] as const };

function isGuardianMe(value: unknown): value is GuardianMe {
  const me = value as GuardianMe;
  return (
    typeof me === 'object' &&
    me !== null &&
    typeof me.subscribed === 'boolean' &&
    typeof me.confirmed === 'boolean' &&
    typeof me.unsubscribed === 'boolean' &&
    (me.email === null || typeof me.email === 'string') &&
    (me.phone === undefined || typeof me.phone === 'string')
  );
}

/** The answer kept for this browser session, if there is one. */
export function cachedGuardianMe(): GuardianMe | null {
  const stored = readJson<unknown>(SESSION_KEY, 'session');
  return isGuardianMe(stored) ? stored : null;
}

/** Asks the server (the guardian cookie travels) and keeps the answer for the session. */
export async function fetchGuardianMe(signal?: AbortSignal): Promise<GuardianMe> {
  const answer = await apiRequest<unknown>('/api/guardians/me', { auth: 'none', signal });
  if (!isGuardianMe(answer)) throw new Error('Unexpected answer from /api/guardians/me');
  writeJson(SESSION_KEY, answer, 'session');
  return answer;
}

/** After subscribing, confirming or unsubscribing the cookie says something else: ask again. */
export function forgetGuardianMe(): void {
  removeKeys([SESSION_KEY], 'session');
}

/** A confirmed subscription that was not withdrawn: e-mails go out, and the cart is mirrored. */
export const isConfirmedGuardian = (me: GuardianMe | null | undefined): boolean => Boolean(me?.subscribed && me.confirmed && !me.unsubscribed);

export const guardianMeQuery = () =>
  queryOptions({
    queryKey: guardianKeys.me,
    queryFn: ({ signal }) => fetchGuardianMe(signal),
    initialData: () => cachedGuardianMe() ?? undefined,
  });
