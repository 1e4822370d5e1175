import { createHmac, randomBytes } from 'node:crypto';
import argon2 from 'argon2';

/** argon2id with pinned parameters (OWASP: m >= 19 MiB, t = 2, p = 1; docs/accounts.md, "Passwords"). */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  if (!hash) {
    // Same work as a real check, so a missing account or password does not answer faster.
    dummyHash ??= hashPassword('no account has this password');
    await argon2.verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** How long a shared password's successful check is remembered (docs/accounts.md, "Passwords"). */
const SHARED_REMEMBER_MS = 10 * 60_000;
/** The most remembered checks; the oldest is forgotten first. */
const SHARED_REMEMBER_MAX = 1_000;
/** Keys the remembered checks: it lives only in this process's memory and changes at each start. */
const rememberKey = randomBytes(32);
/** Successful checks: keyed hash and password -> when it is forgotten. */
const remembered = new Map<string, number>();
/** Checks under way, shared by identical ones arriving meanwhile. */
const underWay = new Map<string, Promise<boolean>>();

/**
 * Checks a password many people share (a school's or a class's, docs/accounts.md, "Passwords"):
 * the same password against the same hash is verified once however many parents type it at
 * once, and a success is remembered for SHARED_REMEMBER_MS. A wrong password is never remembered:
 * a wrong guess made later costs its own argon2 verification, as with verifyPassword. A changed password
 * has a new hash, so nothing remembered for the old one matches it.
 */
export async function verifySharedPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  if (!hash) return verifyPassword(hash, password);
  const key = createHmac('sha256', rememberKey).update(hash).update('\0').update(password).digest('base64url');
  const until = remembered.get(key);
  if (until !== undefined) {
    if (until > Date.now()) return true;
    remembered.delete(key);
  }
  let check = underWay.get(key);
  if (!check) {
    check = verifyPassword(hash, password).finally(() => underWay.delete(key));
    underWay.set(key, check);
  }
  const ok = await check;
  if (ok) {
    remembered.delete(key);
    if (remembered.size >= SHARED_REMEMBER_MAX) remembered.delete(remembered.keys().next().value as string);
    remembered.set(key, Date.now() + SHARED_REMEMBER_MS);
  }
  return ok;
}
