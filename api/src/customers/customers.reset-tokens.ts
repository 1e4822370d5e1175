import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { RESET_LINK_VALIDITY_MS } from '../../contract/constants';
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

/** Issues a fresh token for the customer; a newer token voids every older unused one (D5). */
export async function issueResetToken(knex: Knex, customerId: number): Promise<string> {
  const repo = createCustomersRepository(knex);
  const token = newResetToken();
  const at = now();
  await knex.transaction(async (trx) => {
    await repo.voidResetTokens(customerId, at, trx);
    await repo.insertResetToken({ customerId, tokenHash: hashResetToken(token), createdAt: at, expiresAt: at + RESET_LINK_VALIDITY_MS }, trx);
  });
  return token;
}
