import type { Knex } from 'knex';
import { MSG } from '../../contract/messages';
import type { PhotographerCreateInput, StaffRegisterInput, StaffLoginInput, StaffUser } from '../../contract/auth';
import { conflict, forbidden, notFound, unauthorized } from '../http/errors';
import { hashPassword, verifyPassword } from '../http/passwords';
import type { RateLimits } from '../http/rate-limit';
import type { TokenService } from '../http/auth';
import type { Logger } from '../logger';
import { createStaffRepository, presentStaff } from './staff.repository';
import { isUniqueViolation } from '../db/errors';

export function createStaffService(deps: { knex: Knex; tokens: TokenService; limits: RateLimits; logger: Logger }) {
  const repo = createStaffRepository(deps.knex);

  const session = (row: Parameters<typeof presentStaff>[0]) => ({
    token: deps.tokens.signStaff({ id: Number(row.id), role: row.role }),
    user: presentStaff(row),
  });

  return {
    async login(input: StaffLoginInput, clientIp: string) {
      await deps.limits.guard('staff-login', clientIp, input.email);
      const row = await repo.findByEmail(input.email);
      const ok = await verifyPassword(row?.password_hash, input.password);
      if (!row || !ok) {
        const { delayMs, targetFailures } = await deps.limits.fail('staff-login', clientIp, input.email);
        if (delayMs > 0) {
          // Someone keeps guessing this account's password, probably from many addresses: answers
          // slow down instead of locking the account, so its owner can still sign in.
          if (targetFailures % 10 === 1) {
            deps.logger.warn({ staffId: row ? Number(row.id) : null, failures: targetFailures, client: clientIp, delayMs }, 'repeated failed sign-ins for one staff account: answers slowed');
          }
          await new Promise((resolve) => setTimeout(resolve, delayMs));
        }
        throw unauthorized(MSG.invalidCredentials, 'INVALID_CREDENTIALS');
      }
      await deps.limits.succeed('staff-login', clientIp, input.email);
      return session(row);
    },

    async registrationOpen(): Promise<boolean> {
      return (await repo.count()) === 0;
    },

    /** Open only while no staff account exists; the first account becomes admin (D5). */
    async register(input: StaffRegisterInput) {
      const passwordHash = await hashPassword(input.password);
      const row = await deps.knex.transaction(async (trx) => {
        if ((await repo.count(trx)) > 0) throw forbidden(MSG.registrationClosed, 'REGISTRATION_CLOSED');
        return repo.insert({ ...input, passwordHash, role: 'admin' }, trx);
      });
      return session(row);
    },

    async list(): Promise<StaffUser[]> {
      return (await repo.list()).map(presentStaff);
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

    /** An admin cannot delete themself or the last admin (D5). */
    async delete(id: number, actorId: number): Promise<void> {
      if (id === actorId) throw forbidden(MSG.cannotDeleteSelf, 'CANNOT_DELETE_SELF');
      await deps.knex.transaction(async (trx) => {
        const row = await repo.findById(id, trx);
        if (!row) throw notFound(MSG.photographerNotFound);
        if (row.role === 'admin' && (await repo.count(trx, 'admin')) <= 1) {
          throw forbidden(MSG.cannotDeleteLastAdmin, 'LAST_ADMIN');
        }
        await repo.delete(id, trx);
      });
    },
  };
}

