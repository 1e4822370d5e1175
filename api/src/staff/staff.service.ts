import { MSG } from '../../contract/messages';
import { RESET_LINK_VALIDITY_MS } from '../../contract/constants';
import type {
  ForgotPasswordInput,
  PhotographerCreateInput,
  ResetPasswordInput,
  StaffChangePasswordInput,
  StaffRegisterInput,
  StaffLoginInput,
  StaffUser,
} from '../../contract/auth';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../http/errors';
import { hashPassword, verifyPassword } from '../http/passwords';
import type { Deps } from '../deps';
import { createDatabase } from '../db/database';
import { isUniqueViolation } from '../db/errors';
import { now } from '../db/knex';
import { hashResetToken, newResetToken } from '../customers/customers.reset-tokens';
import { requestResetLink, resetWithLink } from '../http/password-reset';
import { passwordResetEmail } from '../mail/templates';
import type { Outbox } from '../outbox/outbox.service';
import { createStaffRepository, type StaffRecord, type StaffRepository, type StaffResetTokenRecord } from './staff.repository';
import { presentStaff } from './staff.presenter';

/** The staff reset page; like the customers' link it starts from PUBLIC_URL, never the Host header. */
export function staffResetUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/photographer/reset-password?token=${encodeURIComponent(token)}`;
}

export function createStaffService(deps: Pick<Deps, 'knex' | 'tokens' | 'limits' | 'logger' | 'config'>, outbox: Pick<Outbox, 'enqueue' | 'kick'>) {
  const database = createDatabase(deps.knex);
  const repo = createStaffRepository(deps.knex);

  /**
   * Voids the account's older links, stores the new one's digest and writes its e-mail to the
   * outbox, all in one transaction (docs/email.md, "The outbox").
   */
  async function mailResetLink(email: string): Promise<void> {
    const staff = await repo.findByEmail(email);
    if (!staff) return;
    const token = newResetToken();
    const url = staffResetUrl(deps.config.publicUrl, token);
    await database.transaction(async (tx) => {
      const at = now();
      await repo.voidResetTokens(staff.id, at, tx);
      await repo.insertResetToken({ staffId: staff.id, tokenHash: hashResetToken(token), createdAt: at, expiresAt: at + RESET_LINK_VALIDITY_MS }, tx);
      await outbox.enqueue(
        { kind: 'staff_password_reset', to: staff.email, ...passwordResetEmail({ firstName: staff.firstName, resetUrl: url, businessName: deps.config.businessName }) },
        tx,
      );
    });
    outbox.kick();
  }

  const session = (staff: StaffRecord) => ({
    token: deps.tokens.signStaff({ id: staff.id, role: staff.role }),
    user: presentStaff(staff),
  });

  return {
    async login(input: StaffLoginInput, clientIp: string) {
      await deps.limits.guard('staff-login', clientIp, input.email);
      const staff = await repo.findByEmail(input.email);
      const ok = await verifyPassword(staff?.passwordHash, input.password);
      if (!staff || !ok) {
        const { delayMs, targetFailures } = await deps.limits.fail('staff-login', clientIp, input.email);
        if (delayMs > 0) {
          // Someone keeps guessing this account's password, probably from many addresses: answers
          // slow down instead of locking the account, so its owner can still sign in.
          if (targetFailures % 10 === 1) {
            deps.logger.warn({ staffId: staff ? staff.id : null, failures: targetFailures, client: clientIp, delayMs }, 'repeated failed sign-ins for one staff account: answers slowed');
          }
          await new Promise((resolve) => setTimeout(resolve, delayMs));
        }
        throw unauthorized(MSG.invalidCredentials, 'INVALID_CREDENTIALS');
      }
      await deps.limits.succeed('staff-login', clientIp, input.email);
      return session(staff);
    },

    /** Never open in production: there the first admin comes from `npm run create-admin` (docs/accounts.md). */
    async registrationOpen(): Promise<boolean> {
      if (deps.config.nodeEnv === 'production') return false;
      return (await repo.count()) === 0;
    },

    /**
     * Open only while no staff account exists, and never in production, where whoever reached the
     * page first would own the studio; the first account becomes admin (docs/accounts.md).
     */
    async register(input: StaffRegisterInput) {
      if (deps.config.nodeEnv === 'production') {
        throw forbidden((await repo.count()) === 0 ? MSG.registrationServerOnly : MSG.registrationClosed, 'REGISTRATION_CLOSED');
      }
      const passwordHash = await hashPassword(input.password);
      const staff = await database.transaction(async (tx) => {
        if ((await repo.count(undefined, tx)) > 0) throw forbidden(MSG.registrationClosed, 'REGISTRATION_CLOSED');
        return repo.insert({ ...input, passwordHash, role: 'admin' }, tx);
      });
      return session(staff);
    },

    /**
     * Checks the current password (a failure counts as a failed sign-in), stores the new one and
     * voids every token issued before now: the answer carries a fresh one for this device only.
     */
    async changePassword(staffId: number, input: StaffChangePasswordInput, clientIp: string) {
      const staff = await repo.findById(staffId);
      if (!staff) throw unauthorized(MSG.sessionExpired, 'TOKEN_INVALID');
      await deps.limits.guard('staff-login', clientIp, staff.email);
      if (!(await verifyPassword(staff.passwordHash, input.currentPassword))) {
        await deps.limits.fail('staff-login', clientIp, staff.email);
        throw badRequest(MSG.currentPasswordWrong, { currentPassword: MSG.currentPasswordWrong }, 'CURRENT_PASSWORD_WRONG');
      }
      const passwordHash = await hashPassword(input.newPassword);
      await database.transaction(async (tx) => {
        const at = now();
        await repo.setPassword(staffId, passwordHash, at, tx);
        await repo.voidResetTokens(staffId, at, tx);
      });
      // A token signed in the same millisecond as the change still counts as after it.
      return { ...session(staff), message: MSG.passwordChanged };
    },

    /** As for customers: every request counts against the limit, found or not, and the answer never tells (docs/accounts.md). */
    forgotPassword: (input: ForgotPasswordInput, clientIp: string): Promise<{ message: string }> =>
      requestResetLink(deps, input.email, clientIp, mailResetLink, 'staff password reset e-mail was not sent'),

    /** Sets the password, spends the link, voids the others and every older session, and signs in. */
    async resetPassword(input: ResetPasswordInput, clientIp: string) {
      return session(await resetWithLink(deps, database, { ...repo, accountOf: (token: StaffResetTokenRecord) => token.staffId }, input, clientIp));
    },

    /** An admin signs another staff member out of every device (docs/accounts.md, "Staff sessions"). */
    async revokeSessions(id: number, actorId: number): Promise<void> {
      if (id === actorId) throw forbidden(MSG.cannotRevokeSelf, 'CANNOT_REVOKE_SELF');
      if (!(await repo.revokeTokens(id, now()))) throw notFound(MSG.photographerNotFound);
    },

    async list(): Promise<StaffUser[]> {
      return (await repo.list()).map(presentStaff);
    },

    /** The signed-in account, or undefined when it is gone (deleted since the token was issued). */
    async me(staffId: number | null): Promise<StaffUser | undefined> {
      const staff = staffId === null ? undefined : await repo.findById(staffId);
      return staff ? presentStaff(staff) : undefined;
    },

    async create(input: PhotographerCreateInput): Promise<StaffUser> {
      if (await repo.findByEmail(input.email)) throw conflict(MSG.emailTaken, 'EMAIL_TAKEN');
      const passwordHash = await hashPassword(input.password);
      try {
        return presentStaff(await repo.insert({ ...input, passwordHash }));
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(MSG.emailTaken, 'EMAIL_TAKEN');
        throw err;
      }
    },

    /** An admin cannot delete themself or the last admin (docs/accounts.md). */
    async delete(id: number, actorId: number): Promise<void> {
      if (id === actorId) throw forbidden(MSG.cannotDeleteSelf, 'CANNOT_DELETE_SELF');
      await database.transaction(async (tx) => {
        const staff = await repo.findById(id, tx);
        if (!staff) throw notFound(MSG.photographerNotFound);
        if (staff.role === 'admin' && (await repo.count('admin', tx)) <= 1) {
          throw forbidden(MSG.cannotDeleteLastAdmin, 'LAST_ADMIN');
        }
        await repo.delete(id, tx);
      });
    },
  };
}

export interface AdminAccountInput {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

/**
 * `npm run create-admin` (docs/accounts.md, "The first administrator"): an administrator made on
 * the server, by whoever can run commands there, so nobody needs the open register page.
 */
export async function createAdminAccount(repo: StaffRepository, input: AdminAccountInput): Promise<StaffUser> {
  if (await repo.findByEmail(input.email)) throw conflict(MSG.emailTaken, 'EMAIL_TAKEN');
  const passwordHash = await hashPassword(input.password);
  try {
    return presentStaff(await repo.insert({ ...input, passwordHash, role: 'admin' }));
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(MSG.emailTaken, 'EMAIL_TAKEN');
    throw err;
  }
}

/**
 * INITIAL_ADMIN_EMAIL and INITIAL_ADMIN_PASSWORD, read once at start (docs/accounts.md, "The first
 * administrator"): on a database with no staff account that administrator is made; otherwise the
 * variables are ignored and the log says so. The log names the address, never the password.
 * Processes starting together on an empty database make one account: the address is unique.
 */
export async function ensureInitialAdmin(deps: Pick<Deps, 'knex' | 'logger'>, input: AdminAccountInput): Promise<'created' | 'ignored'> {
  const repo = createStaffRepository(deps.knex);
  const ignored = () => {
    deps.logger.info({ email: input.email }, 'INITIAL_ADMIN_EMAIL ignored: staff accounts already exist (it only makes the first administrator)');
    return 'ignored' as const;
  };
  if ((await repo.count()) > 0) return ignored();
  const passwordHash = await hashPassword(input.password);
  try {
    const made = await createDatabase(deps.knex).transaction(async (tx) => {
      if ((await repo.count(undefined, tx)) > 0) return false;
      await repo.insert({ ...input, passwordHash, role: 'admin' }, tx);
      return true;
    });
    if (!made) return ignored();
  } catch (err) {
    if (isUniqueViolation(err)) return ignored();
    throw err;
  }
  deps.logger.info({ email: input.email }, 'first administrator created from INITIAL_ADMIN_EMAIL');
  return 'created';
}
