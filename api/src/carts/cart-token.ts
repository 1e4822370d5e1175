/**
 * The link of a "still in your cart" e-mail (docs/outreach.md, "Abandoned carts and unpaid
 * orders"): a token signed with the server's secret that names the guardian, the cart's version
 * (when it last changed), when the link ends, and the grants it may renew: each school or child the
 * guardian followed, tagged with the credential (school password epoch, child's code) as it was
 * when the message was written, so a password or code changed since then is not renewed by it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a restore link works. */
export const CART_LINK_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** At most this many grants ride in one link (a family follows a child or two, a school). */
export const CART_LINK_MAX_GRANTS = 8;

export interface CartLinkGrant {
  kind: 'school' | 'student';
  id: number;
  /** The credential's tag when the link was made (`credentialTag`). */
  tag: string;
}

export interface CartLink {
  guardianId: number;
  /** The cart's `updated_at` the message was written for. */
  version: number;
  expiresAt: number;
  grants: CartLinkGrant[];
}

const PURPOSE = 'cart-restore:v1:';
const mac = (secret: string, payload: string): string => createHmac('sha256', secret).update(PURPOSE + payload).digest('base64url').slice(0, 32);

/** A short keyed tag of a credential (an epoch or a code): comparable later without revealing it. */
export function credentialTag(secret: string, kind: 'school' | 'student', id: number, credential: string | number): string {
  return createHmac('sha256', secret).update(`cart-restore-grant:${kind}:${id}:${credential}`).digest('base64url').slice(0, 12);
}

export function signCartLink(secret: string, link: CartLink): string {
  const payload = Buffer.from(
    JSON.stringify({
      g: link.guardianId,
      v: link.version,
      e: link.expiresAt,
      f: link.grants.slice(0, CART_LINK_MAX_GRANTS).map((grant) => [grant.kind === 'school' ? 's' : 'c', grant.id, grant.tag]),
    }),
    'utf8',
  ).toString('base64url');
  return `${payload}.${mac(secret, payload)}`;
}

/** `invalid`: not made by this server (or mangled); `expired`: genuine but past its end. */
export function verifyCartLink(secret: string, token: string, now: number = Date.now()): CartLink | 'invalid' | 'expired' {
  const [payload, given, extra] = token.split('.');
  if (!payload || !given || extra !== undefined) return 'invalid';
  const expected = Buffer.from(mac(secret, payload));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return 'invalid';
  let claims: { g?: unknown; v?: unknown; e?: unknown; f?: unknown };
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    return 'invalid';
  }
  const { g, v, e, f } = claims;
  if (!Number.isSafeInteger(g) || !Number.isSafeInteger(v) || !Number.isSafeInteger(e) || !Array.isArray(f)) return 'invalid';
  const grants = f.flatMap((item): CartLinkGrant[] => {
    if (!Array.isArray(item) || item.length !== 3) return [];
    const [kind, id, tag] = item as unknown[];
    if ((kind !== 's' && kind !== 'c') || !Number.isSafeInteger(id) || typeof tag !== 'string') return [];
    return [{ kind: kind === 's' ? 'school' : 'student', id: id as number, tag }];
  });
  if ((e as number) <= now) return 'expired';
  return { guardianId: g as number, version: v as number, expiresAt: e as number, grants };
}
