import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { RESET_LINK_VALIDITY_MS } from '../../contract/constants';
import { isDeadlock } from '../db/errors';
import { now } from '../db/knex';
import { createCustomersRepository } from './customers.repository';

/** 256 bits from the CSPRNG, sent only in the e-mailed link (D5; checklist D1). */
export function newResetToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this digest is stored; at 256 bits of entropy a plain SHA-256 is enough (checklist D1). */
export function hashResetToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The link always starts from PUBLIC_URL, never from the request's Host header (checklist D3). */
export function resetUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * Times a token is tried when MariaDB takes the transaction back: voiding locks the gap in the
 * customer index where the new token goes, so new customers checking out at the same moment can
 * deadlock each other (one of the two is taken back and simply runs again).
 */
const ISSUE_ATTEMPTS = 5;

/** Issues a fresh token for the customer; a newer token voids every older unused one (D5). */
export async function issueResetToken(knex: Knex, customerId: number): Promise<string> {
  const repo = createCustomersRepository(knex);
  const token = newResetToken();
  for (let attempt = 1; ; attempt++) {
    const at = now();
    try {
      await knex.transaction(async (trx) => {
        await repo.voidResetTokens(customerId, at, trx);
        await repo.insertResetToken({ customerId, tokenHash: hashResetToken(token), createdAt: at, expiresAt: at + RESET_LINK_VALIDITY_MS }, trx);
      });
      return token;
    } catch (err) {
      if (attempt >= ISSUE_ATTEMPTS || !isDeadlock(err)) throw err;
    }
  }
}
