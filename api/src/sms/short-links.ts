import { randomBytes } from 'node:crypto';
import type { Deps } from '../deps';
import type { Tx } from '../db/database';
import { isUniqueViolation } from '../db/errors';
import { createShortLinksRepository } from './short-links.repository';

/** 9 random bytes: 12 base64url characters, 72 bits, so a link cannot be guessed (docs/sms.md, "Short links"). */
const TOKEN_BYTES = 9;
export const SHORT_LINK_TOKEN = /^[A-Za-z0-9_-]{1,16}$/;

/**
 * A target on this site: a path from its root ("/orders/…?t=…"), never another site ("//host",
 * "/\\host", a scheme) and nothing a redirect header could carry further (control characters).
 */
export function isSitePath(targetPath: string): boolean {
  if (!targetPath.startsWith('/') || targetPath.startsWith('//') || targetPath.startsWith('/\\') || targetPath.length > 1000) return false;
  // No whitespace or control character (a header could be split by one).
  return [...targetPath].every((char) => char > ' ' && char !== '\u007F' && !/\s/u.test(char));
}

/**
 * Short links for SMS (docs/sms.md, "Short links"): `PUBLIC_URL/s/{token}` stands for a path on
 * PUBLIC_URL (a gallery, a cart, an order) so a message stays one segment. A link redirects only
 * to PUBLIC_URL plus its path, never elsewhere; an unknown or expired one is a 404.
 */
export function createShortLinks(deps: Pick<Deps, 'knex' | 'config'>) {
  const repo = createShortLinksRepository(deps.knex);
  return {
    /**
     * A new link to `targetPath`, written in `tx` (the transaction that writes the SMS carrying
     * it); answers the full URL. `expiresAt` (epoch ms) ends it; null or absent keeps it.
     */
    async create(targetPath: string, options: { expiresAt?: number | null } = {}, tx?: Tx | null): Promise<string> {
      if (!isSitePath(targetPath)) throw new Error('a short link points to a path on PUBLIC_URL');
      for (let tries = 0; ; tries++) {
        const token = randomBytes(TOKEN_BYTES).toString('base64url');
        try {
          await repo.insert({ token, targetPath, expiresAt: options.expiresAt ?? null, createdAt: Date.now() }, tx);
          return `${deps.config.publicUrl}/s/${token}`;
        } catch (err) {
          // 72 random bits: a clash is all but impossible, but one is tried again rather than failed.
          if (tries < 2 && isUniqueViolation(err)) continue;
          throw err;
        }
      }
    },

    /** Where `/s/{token}` redirects: PUBLIC_URL and the link's path, or null (unknown, expired, malformed). */
    async resolve(token: string, now = Date.now()): Promise<string | null> {
      if (!SHORT_LINK_TOKEN.test(token)) return null;
      const target = await repo.target(token, now);
      return target !== null && isSitePath(target) ? `${deps.config.publicUrl}${target}` : null;
    },

    /** Forgets links that expired more than a day ago (the maintenance job). */
    deleteExpired: (now = Date.now()): Promise<number> => repo.deleteExpired(now - 24 * 60 * 60_000),
  };
}
export type ShortLinks = ReturnType<typeof createShortLinks>;
