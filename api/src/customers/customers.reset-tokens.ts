import { createHash, randomBytes } from 'node:crypto';
import { RESET_LINK_VALIDITY_MS, SET_PASSWORD_LINK_VALIDITY_MS } from '../../contract/constants';
import type { Database, Tx } from '../db/database';
import { isDeadlock } from '../db/errors';
import { now } from '../db/knex';
import type { CustomersRepository } from './customers.repository';

/** 256 bits from the CSPRNG, sent only in the e-mailed link (docs/accounts.md). */
export function newResetToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this digest is stored; at 256 bits of entropy a plain SHA-256 is enough. */
export function hashResetToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The link always starts from PUBLIC_URL, never from the request's Host header, which anyone can forge. */
export function resetUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
}

/** The first link of an account made at checkout: the same page, which then says "Password set". */
export function setPasswordUrl(publicUrl: string, token: string): string {
  return `${resetUrl(publicUrl, token)}&first=1`;
}

/**
 * Times a token is tried when MariaDB takes the transaction back: voiding locks the gap in the
 * customer index where the new token goes, so new customers checking out at the same moment can
 * deadlock each other (one of the two is taken back and simply runs again).
 */
const ISSUE_ATTEMPTS = 5;

/**
 * Issues a fresh token for the customer; a newer token voids every older unused one (docs/accounts.md).
 * `alongside` runs in the same transaction (the e-mail's outbox row, docs/email.md, "The outbox").
 */
export async function issueResetToken(
  database: Database,
  repo: CustomersRepository,
  customerId: number,
  alongside?: (token: string, tx: Tx) => Promise<unknown>,
): Promise<string> {
  const token = newResetToken();
  for (let attempt = 1; ; attempt++) {
    const at = now();
    try {
      await database.transaction(async (tx) => {
        await repo.voidResetTokens(customerId, at, tx);
        await repo.insertResetToken({ customerId, tokenHash: hashResetToken(token), createdAt: at, expiresAt: at + RESET_LINK_VALIDITY_MS }, tx);
        await alongside?.(token, tx);
      });
      return token;
    } catch (err) {
      if (attempt >= ISSUE_ATTEMPTS || !isDeadlock(err)) throw err;
    }
  }
}

/**
 * The first token of an account made at checkout, written in the order's own transaction. A new
 * account has no older token to void, so this is one insert that locks nothing another checkout
 * needs: voiding first (as issueResetToken must) locked the gap in the customer index where other
 * new customers' tokens go, and a rush of them deadlocked each other.
 */
export async function issueFirstResetToken(repo: CustomersRepository, customerId: number, tx: Tx): Promise<string> {
  const token = newResetToken();
  const at = now();
  await repo.insertResetToken({ customerId, tokenHash: hashResetToken(token), createdAt: at, expiresAt: at + SET_PASSWORD_LINK_VALIDITY_MS }, tx);
  return token;
}
