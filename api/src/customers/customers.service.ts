import type { Knex } from 'knex';
import { MSG } from '../../contract/messages';
import type {
  CustomerLoginInput,
  CustomerRegisterInput,
  CustomerUser,
  ForgotPasswordInput,
  ResetPasswordInput,
} from '../../contract/auth';
import type { Deps } from '../deps';
import { now } from '../db/knex';
import { badRequest, conflict, unauthorized } from '../http/errors';
import { hashPassword, verifyPassword } from '../http/passwords';
import { isUniqueViolation } from '../db/errors';
import { accountCreatedEmail, passwordResetEmail } from '../mail/templates';
import { createCustomersRepository, presentCustomer, type CustomerRow } from './customers.repository';
import { hashResetToken, issueResetToken, resetUrl } from './customers.reset-tokens';

/** The same answer for known and unknown addresses, so it tells nobody who has an account (D5). */
export const RESET_LINK_SENT = 'If an account exists with this email, a password reset link has been sent.';

/** 409 on register: the address may belong to an account made at checkout that has no password yet. */
export const CUSTOMER_EMAIL_TAKEN = 'An account with this email already exists. Sign in, or use Forgot password to set a new password.';

export interface CheckoutCustomer {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
}

export interface CheckoutCustomerInput {
  email: string;
  name: string;
  phone?: string | null;
}

type ServiceDeps = Pick<Deps, 'knex' | 'tokens' | 'limits' | 'mailer' | 'logger' | 'config'>;

export function createCustomerService(deps: ServiceDeps) {
  const repo = createCustomersRepository(deps.knex);

  const session = (row: CustomerRow) => ({
    token: deps.tokens.signCustomer({ id: Number(row.id) }),
    user: presentCustomer(row),
  });

  const invalidLink = () => badRequest(MSG.resetLinkInvalid, { token: MSG.resetLinkInvalid }, 'RESET_LINK_INVALID');

  async function mailResetLink(email: string): Promise<void> {
    const row = await repo.findByEmail(email);
    if (!row) return;
    const token = await issueResetToken(deps.knex, Number(row.id));
    await deps.mailer.send({
      to: row.email,
      ...passwordResetEmail({
        firstName: row.first_name,
        resetUrl: resetUrl(deps.config.publicUrl, token),
        businessName: deps.config.businessName,
      }),
    });
  }

  return {
    async register(input: CustomerRegisterInput) {
      if (await repo.findByEmail(input.email)) throw conflict(CUSTOMER_EMAIL_TAKEN, 'EMAIL_TAKEN');
      const passwordHash = await hashPassword(input.password);
      try {
        const row = await repo.insert({ email: input.email, passwordHash, firstName: input.firstName, lastName: input.lastName });
        return session(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(CUSTOMER_EMAIL_TAKEN, 'EMAIL_TAKEN');
        throw err;
      }
    },

    /** Wrong password, unknown address and an account without a password answer alike (checklist B4). */
    async login(input: CustomerLoginInput, clientIp: string) {
      await deps.limits.guard('customer-login', clientIp, input.email);
      const row = await repo.findByEmail(input.email);
      const ok = await verifyPassword(row?.password_hash, input.password);
      if (!row || !ok) {
        const { delayMs, targetFailures } = await deps.limits.fail('customer-login', clientIp, input.email);
        if (delayMs > 0) {
          // As for staff: slowed, never locked, so the parent can still sign in.
          if (targetFailures % 10 === 1) {
            deps.logger.warn({ customerId: row ? Number(row.id) : null, failures: targetFailures, client: clientIp, delayMs }, 'repeated failed sign-ins for one customer account: answers slowed');
          }
          await new Promise((resolve) => setTimeout(resolve, delayMs));
        }
        throw unauthorized(MSG.invalidCredentials, 'INVALID_CREDENTIALS');
      }
      await deps.limits.succeed('customer-login', clientIp, input.email);
      return session(row);
    },

    async me(id: number): Promise<CustomerUser> {
      const row = await repo.findById(id);
      if (!row) throw unauthorized(MSG.sessionExpired, 'TOKEN_INVALID');
      return presentCustomer(row);
    },

    /**
     * Every request counts against the limit, found or not, so nobody floods an inbox (checklist D2).
     * The lookup and the mail run after the answer, so both cases take the same time on the request path.
     */
    async forgotPassword(input: ForgotPasswordInput, clientIp: string): Promise<{ message: string }> {
      await deps.limits.guard('password-reset', clientIp, input.email);
      await deps.limits.fail('password-reset', clientIp, input.email);
      mailResetLink(input.email).catch((err: unknown) => deps.logger.error({ err }, 'password reset e-mail was not sent'));
      return { message: RESET_LINK_SENT };
    },

    /** Sets the password, spends the token, voids the others and every older session, and signs in (D5). */
    async resetPassword(input: ResetPasswordInput, clientIp: string) {
      // Invalid or expired links count per client, so nobody can try links in bulk.
      await deps.limits.guard('reset-link', clientIp, 'link');
      const found = await repo.findResetToken(hashResetToken(input.token));
      if (!found || found.used_at !== null || Number(found.expires_at) <= now()) {
        await deps.limits.fail('reset-link', clientIp, 'link');
        throw invalidLink();
      }
      const passwordHash = await hashPassword(input.newPassword);
      const row = await deps.knex.transaction(async (trx) => {
        const at = now();
        if (!(await repo.consumeResetToken(found.id, at, trx))) throw invalidLink();
        await repo.voidResetTokens(found.customer_id, at, trx);
        await repo.setPassword(found.customer_id, passwordHash, at, trx);
        return repo.findById(found.customer_id, trx);
      });
      if (!row) throw invalidLink();
      return session(row);
    },

    findOrCreateCheckoutCustomer,

    /**
     * Mails the set-your-password link to an account made at checkout. Call it after the order's
     * transaction commits. Resolves false (and logs) when the mail could not be sent, so a mail
     * outage never fails an order that is already stored.
     */
    async sendSetPasswordEmail(customer: Pick<CheckoutCustomer, 'id' | 'email' | 'firstName'>): Promise<boolean> {
      try {
        const token = await issueResetToken(deps.knex, customer.id);
        await deps.mailer.send({
          to: customer.email,
          ...accountCreatedEmail({
            firstName: customer.firstName,
            setPasswordUrl: resetUrl(deps.config.publicUrl, token),
            businessName: deps.config.businessName,
          }),
        });
        return true;
      } catch (err) {
        deps.logger.error({ err, customerId: customer.id }, 'account-created e-mail was not sent');
        return false;
      }
    },
  };
}
export type CustomerService = ReturnType<typeof createCustomerService>;

/**
 * The customer for a checkout (D5): the existing account for that address, or a new one without a
 * usable password. An existing account is never changed, since checkout proves nothing about who
 * owns it. Runs inside the caller's transaction.
 */
export async function findOrCreateCheckoutCustomer(
  trx: Knex,
  input: CheckoutCustomerInput,
): Promise<{ customer: CheckoutCustomer; created: boolean }> {
  const repo = createCustomersRepository(trx);
  const email = input.email.trim().toLowerCase();
  const existing = await repo.findByEmail(email, trx);
  if (existing) return { customer: toCheckoutCustomer(existing), created: false };
  const { firstName, lastName } = splitName(input.name);
  const phone = input.phone?.trim().slice(0, 40) || null;
  try {
    const row = await repo.insert({ email, passwordHash: null, firstName, lastName, phone }, trx);
    return { customer: toCheckoutCustomer(row), created: true };
  } catch (err) {
    // A concurrent checkout with the same address created it first: use that account.
    if (!isUniqueViolation(err)) throw err;
    const winner = await repo.findByEmailForUpdate(email, trx);
    if (!winner) throw err;
    return { customer: toCheckoutCustomer(winner), created: false };
  }
}

/** "Jane van der Merwe" -> Jane / van der Merwe; a single word leaves the last name empty. */
export function splitName(name: string): { firstName: string; lastName: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const firstName = (words[0] ?? '').slice(0, 100);
  const lastName = words.slice(1).join(' ').slice(0, 100);
  return { firstName, lastName };
}

function toCheckoutCustomer(row: CustomerRow): CheckoutCustomer {
  return { id: Number(row.id), email: row.email, firstName: row.first_name, lastName: row.last_name };
}
