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
