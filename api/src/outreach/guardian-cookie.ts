/**
 * The browser a guardian subscribed from (docs/outreach.md, "The guardian cookie"): a signed,
 * HttpOnly cookie holding the guardian's id, so that browser can mirror its cart and the gallery
 * knows not to offer the subscription again. It grants no photo: access stays the gallery cookie's.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';

export const GUARDIAN_COOKIE = 'guardian';
/** A year: the season and the next. */
export const GUARDIAN_COOKIE_MAX_AGE_MS = 365 * 24 * 60 * 60 * 1000;

const mac = (secret: string, id: number): string => createHmac('sha256', secret).update(`guardian-cookie:v1:${id}`).digest('base64url').slice(0, 32);

export const signGuardian = (secret: string, id: number): string => `${id}.${mac(secret, id)}`;

/** The guardian id a cookie value names, or null when it is missing or was not made by this server. */
export function readGuardian(secret: string, value: string | undefined | null): number | null {
  if (!value) return null;
  const match = /^(\d{1,10})\.([A-Za-z0-9_-]{32})$/.exec(value);
  if (!match) return null;
  const id = Number(match[1]);
  const expected = Buffer.from(mac(secret, id));
  const given = Buffer.from(match[2] as string);
  return expected.length === given.length && timingSafeEqual(expected, given) ? id : null;
}

/** For routes: sets (or, with null, clears) the cookie. */
export function setGuardianCookie(ctx: Context, secret: string, id: number | null): void {
  const options = { httpOnly: true, sameSite: 'lax' as const, secure: ctx.secure, path: '/', overwrite: true };
  if (id === null) ctx.cookies.set(GUARDIAN_COOKIE, null, options);
  else ctx.cookies.set(GUARDIAN_COOKIE, signGuardian(secret, id), { ...options, maxAge: GUARDIAN_COOKIE_MAX_AGE_MS });
}

/** For routes: the guardian id of this browser's cookie, or null. */
export const guardianOf = (ctx: Context, secret: string): number | null => readGuardian(secret, ctx.cookies.get(GUARDIAN_COOKIE));
