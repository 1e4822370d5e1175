import { MSG } from '../../contract/messages';
import type {
  CustomerLoginInput,
  CustomerRegisterInput,
  ForgotPasswordInput,
  ResetPasswordInput,
} from '../../contract/auth';
import type { Deps } from '../deps';
import { createDatabase, type Tx } from '../db/database';
import { conflict, unauthorized } from '../http/errors';
import { hashPassword, verifyPassword } from '../http/passwords';
import { isUniqueViolation } from '../db/errors';
import { accountCreatedEmail, passwordResetEmail, type EmailContent } from '../mail/templates';
import { createCustomersRepository, type CustomerRecord, type CustomersRepository, type ResetTokenRecord } from './customers.repository';
import { requestResetLink, resetWithLink } from '../http/password-reset';
import { issueFirstResetToken, issueResetToken, resetUrl, setPasswordUrl } from './customers.reset-tokens';
import type { Outbox } from '../outbox/outbox.service';
import { inboxKey } from '../lib/inbox-key';

/** Kept under these names for callers that take them from here; the texts live in the contract. */
export const RESET_LINK_SENT = MSG.resetLinkSent;
export const CUSTOMER_EMAIL_TAKEN = MSG.customerEmailTaken;

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

type ServiceDeps = Pick<Deps, 'knex' | 'tokens' | 'limits' | 'logger' | 'config'>;
/** What a service needs of the outbox (api/src/outbox/outbox.service.ts). */
type Mailbox = Pick<Outbox, 'enqueue' | 'kick'>;

/** A signed-in customer: present it with `presentSession()` (customers.presenter.ts). */
export interface CustomerSession {
  token: string;
  customer: CustomerRecord;
}

export function createCustomerService(deps: ServiceDeps, outbox: Mailbox) {
  const repo = createCustomersRepository(deps.knex);
  const database = createDatabase(deps.knex);

  const session = (customer: CustomerRecord): CustomerSession => ({
    token: deps.tokens.signCustomer({ id: customer.id }),
    customer,
  });

  /**
   * Issues a one-time password link for the account and writes its e-mail, in the words `compose`
   * gives, to the outbox in the token's own transaction: the link exists exactly when its mail does.
   */
  async function mailPasswordLink(customer: Pick<CheckoutCustomer, 'id' | 'email'>, compose: (url: string) => EmailContent): Promise<void> {
    await issueResetToken(database, repo, customer.id, (token, tx) =>
      outbox.enqueue({ kind: 'password_reset', to: customer.email, ...compose(resetUrl(deps.config.publicUrl, token)) }, tx),
    );
    outbox.kick();
  }

  const accountCreated = (customer: Pick<CheckoutCustomer, 'firstName'>) => (url: string) =>
    accountCreatedEmail({ firstName: customer.firstName, setPasswordUrl: url, businessName: deps.config.businessName });

  async function mailResetLink(email: string): Promise<void> {
    const customer = await repo.findByEmail(email);
    if (!customer) return;
    await mailPasswordLink(customer, (url) => passwordResetEmail({ firstName: customer.firstName, resetUrl: url, businessName: deps.config.businessName }));
  }

  return {
    async register(input: CustomerRegisterInput): Promise<CustomerSession> {
      if (await repo.findByEmail(input.email)) throw conflict(MSG.customerEmailTaken, 'EMAIL_TAKEN');
      const passwordHash = await hashPassword(input.password);
      try {
        const customer = await repo.insert({ email: input.email, passwordHash, firstName: input.firstName, lastName: input.lastName });
        return session(customer);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(MSG.customerEmailTaken, 'EMAIL_TAKEN');
        throw err;
      }
    },

    /** Wrong password, unknown address and an account without a password answer alike, so none of them tells who has an account. */
    async login(input: CustomerLoginInput, clientIp: string): Promise<CustomerSession> {
      await deps.limits.guard('customer-login', clientIp, input.email);
      const customer = await repo.findByEmail(input.email);
      const ok = await verifyPassword(customer?.passwordHash, input.password);
      if (!customer || !ok) {
        const { delayMs, targetFailures } = await deps.limits.fail('customer-login', clientIp, input.email);
        if (delayMs > 0) {
          // As for staff: slowed, never locked, so the parent can still sign in.
          if (targetFailures % 10 === 1) {
            deps.logger.warn({ customerId: customer ? customer.id : null, failures: targetFailures, client: clientIp, delayMs }, 'repeated failed sign-ins for one customer account: answers slowed');
          }
          await new Promise((resolve) => setTimeout(resolve, delayMs));
        }
        throw unauthorized(MSG.invalidCredentials, 'INVALID_CREDENTIALS');
      }
      await deps.limits.succeed('customer-login', clientIp, input.email);
      return session(customer);
    },

    async me(id: number): Promise<CustomerRecord> {
      const customer = await repo.findById(id);
      if (!customer) throw unauthorized(MSG.sessionExpired, 'TOKEN_INVALID');
      return customer;
    },

    /** Every request counts against the limit, found or not, so nobody floods an inbox (docs/accounts.md, "Password reset"). */
    forgotPassword: (input: ForgotPasswordInput, clientIp: string): Promise<{ message: string }> =>
      requestResetLink(deps, input.email, clientIp, mailResetLink, 'password reset e-mail was not sent'),

    /** Sets the password, spends the token, voids the others and every older session, and signs in (docs/accounts.md). */
    async resetPassword(input: ResetPasswordInput, clientIp: string): Promise<CustomerSession> {
      return session(await resetWithLink(deps, database, { ...repo, accountOf: (token: ResetTokenRecord) => token.customerId }, input, clientIp));
    },

    /** The customer for a checkout, inside the order's transaction (see `checkoutCustomer`). */
    findOrCreateCheckoutCustomer: (input: CheckoutCustomerInput, tx?: Tx) => checkoutCustomer(repo, input, tx),

    /**
     * The set-your-password token of an account just made at checkout, inside the order's
     * transaction, so the order and its account's first link are stored together or not at all.
     * Mail it with `mailSetPasswordLink` in the same transaction.
     */
    issueSetPasswordToken: (customerId: number, tx: Tx): Promise<string> => issueFirstResetToken(repo, customerId, tx),

    /**
     * Whether an account made at checkout for this address may be sent its "set your password"
     * e-mail: at most SET_PASSWORD_MAILS_PER_DAY a day reach one inbox (`inboxKey()`, so `+tags` and
     * Gmail's dots do not multiply them), or a stranger could flood it with orders (docs/accounts.md,
     * "Account created at checkout"). Asked before the order's transaction; counts nothing.
     */
    setPasswordMailAllowed: (email: string): Promise<boolean> => deps.limits.allows('set-password-mail', '', inboxKey(email)),

    /** Counts a "set your password" e-mail written for this address, after its order committed. */
    setPasswordMailSent: (email: string): Promise<void> => deps.limits.record('set-password-mail', '', inboxKey(email)),

    /**
     * Writes the e-mail with the link of a token from `issueSetPasswordToken` to the outbox, in that
     * token's transaction (docs/email.md, "The outbox"); the caller kicks the outbox after the commit.
     */
    async mailSetPasswordLink(customer: Pick<CheckoutCustomer, 'id' | 'email' | 'firstName'>, token: string, tx: Tx): Promise<void> {
      await outbox.enqueue({ kind: 'set_password', to: customer.email, ...accountCreated(customer)(setPasswordUrl(deps.config.publicUrl, token)) }, tx);
    },
  };
}
export type CustomerService = ReturnType<typeof createCustomerService>;

/**
 * The customer for a checkout (docs/accounts.md): the existing account for that address, or a new
 * one without a usable password. An existing account is never changed, since checkout proves
 * nothing about who owns it. Runs inside the caller's transaction.
 */
async function checkoutCustomer(
  repo: CustomersRepository,
  input: CheckoutCustomerInput,
  tx?: Tx,
): Promise<{ customer: CheckoutCustomer; created: boolean }> {
  const email = input.email.trim().toLowerCase();
  const existing = await repo.findByEmail(email, tx);
  if (existing) return { customer: toCheckoutCustomer(existing), created: false };
  const { firstName, lastName } = splitName(input.name);
  const phone = input.phone?.trim().slice(0, 40) || null;
  try {
    const customer = await repo.insert({ email, passwordHash: null, firstName, lastName, phone }, tx);
    return { customer: toCheckoutCustomer(customer), created: true };
  } catch (err) {
    // A concurrent checkout with the same address created it first: use that account.
    if (!isUniqueViolation(err)) throw err;
    const winner = await repo.findByEmailForUpdate(email, tx);
    if (!winner) throw err;
    return { customer: toCheckoutCustomer(winner), created: false };
  }
}

/**
 * The same, on a connection or transaction of the caller's own (scripts and tests): a repository
 * built on it runs every query there.
 */
export function findOrCreateCheckoutCustomer(db: Deps['knex'], input: CheckoutCustomerInput): Promise<{ customer: CheckoutCustomer; created: boolean }> {
  return checkoutCustomer(createCustomersRepository(db), input);
}

/** "Jane van der Merwe" -> Jane / van der Merwe; a single word leaves the last name empty. */
export function splitName(name: string): { firstName: string; lastName: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const firstName = (words[0] ?? '').slice(0, 100);
  const lastName = words.slice(1).join(' ').slice(0, 100);
  return { firstName, lastName };
}

function toCheckoutCustomer(customer: CustomerRecord): CheckoutCustomer {
  return { id: customer.id, email: customer.email, firstName: customer.firstName, lastName: customer.lastName };
}
