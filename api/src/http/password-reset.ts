/**
 * The reset-by-e-mail flow customers and staff share (docs/accounts.md, "Password reset" and
 * "Staff passwords"): asking for a link and spending one. Each account kind brings its own
 * token table and the mail it sends; the rules are the same for both.
 */
import { MSG } from '../../contract/messages';
import type { Database, Tx } from '../db/database';
import { now } from '../db/knex';
import type { Deps } from '../deps';
import { hashResetToken } from '../customers/customers.reset-tokens';
import { badRequest } from './errors';
import { hashPassword } from './passwords';
import { loggableError } from '../mail/log-safe';

/** A stored reset token, whoever's account it resets. */
export interface StoredResetToken {
  id: number;
  /** Epoch ms. */
  expiresAt: number;
  /** Epoch ms, or null while unused. */
  usedAt: number | null;
}

/** What the flow needs from an account kind's repository. */
export interface ResetTokenStore<Token extends StoredResetToken, Account> {
  findResetToken(tokenHash: string): Promise<Token | undefined>;
  /** Spends the token; false when it was spent or expired meanwhile. */
  consumeResetToken(id: number, at: number, tx: Tx): Promise<boolean>;
  voidResetTokens(accountId: number, at: number, tx: Tx): Promise<unknown>;
  /** Stores the password hash and voids every token issued before `at` (tokens_valid_after). */
  setPassword(accountId: number, passwordHash: string, at: number, tx: Tx): Promise<unknown>;
  findById(accountId: number, tx: Tx): Promise<Account | undefined>;
  /** The account a token resets. */
  accountOf(token: Token): number;
}

type FlowDeps = Pick<Deps, 'limits' | 'logger'>;

const invalidLink = () => badRequest(MSG.resetLinkInvalid, { token: MSG.resetLinkInvalid }, 'RESET_LINK_INVALID');

/**
 * "Forgot password": every request counts against the limit, found or not, so nobody floods an
 * inbox; the lookup and the mail (`mailLink`) run after the answer, so both cases take the same
 * time on the request path and the answer never tells who has an account.
 */
export async function requestResetLink(
  deps: FlowDeps,
  email: string,
  clientIp: string,
  mailLink: (email: string) => Promise<void>,
  failedLog: string,
): Promise<{ message: string }> {
  await deps.limits.guard('password-reset', clientIp, email);
  await deps.limits.fail('password-reset', clientIp, email);
  // A database error's text may quote the address: logged without it (docs/email.md, "What the logs say").
  mailLink(email).catch((err: unknown) => deps.logger.error({ err: loggableError(err) }, failedLog));
  return { message: MSG.resetLinkSent };
}

/**
 * Sets the password with a reset link: spends the link, voids the account's other links and every
 * older session, and returns the account to sign in. Invalid or expired links count per client,
 * so nobody can try links in bulk.
 */
export async function resetWithLink<Token extends StoredResetToken, Account>(
  deps: FlowDeps,
  database: Database,
  store: ResetTokenStore<Token, Account>,
  input: { token: string; newPassword: string },
  clientIp: string,
): Promise<Account> {
  await deps.limits.guard('reset-link', clientIp, 'link');
  const found = await store.findResetToken(hashResetToken(input.token));
  if (!found || found.usedAt !== null || found.expiresAt <= now()) {
    await deps.limits.fail('reset-link', clientIp, 'link');
    throw invalidLink();
  }
  const accountId = store.accountOf(found);
  const passwordHash = await hashPassword(input.newPassword);
  const account = await database.transaction(async (tx) => {
    const at = now();
    if (!(await store.consumeResetToken(found.id, at, tx))) throw invalidLink();
    await store.voidResetTokens(accountId, at, tx);
    await store.setPassword(accountId, passwordHash, at, tx);
    return store.findById(accountId, tx);
  });
  if (!account) throw invalidLink();
  return account;
}
