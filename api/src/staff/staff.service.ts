import { MSG } from '../../contract/messages';
import type { PhotographerCreateInput, StaffRegisterInput, StaffLoginInput, StaffUser } from '../../contract/auth';
import { conflict, forbidden, notFound, unauthorized } from '../http/errors';
import { hashPassword, verifyPassword } from '../http/passwords';
import type { Deps } from '../deps';
import { createDatabase } from '../db/database';
import { isUniqueViolation } from '../db/errors';
import { createStaffRepository, type StaffRecord } from './staff.repository';
import { presentStaff } from './staff.presenter';

export function createStaffService(deps: Pick<Deps, 'knex' | 'tokens' | 'limits' | 'logger'>) {
  const database = createDatabase(deps.knex);
  const repo = createStaffRepository(deps.knex);

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

    async registrationOpen(): Promise<boolean> {
      return (await repo.count()) === 0;
    },

    /** Open only while no staff account exists; the first account becomes admin (docs/accounts.md). */
    async register(input: StaffRegisterInput) {
      const passwordHash = await hashPassword(input.password);
      const staff = await database.transaction(async (tx) => {
        if ((await repo.count(undefined, tx)) > 0) throw forbidden(MSG.registrationClosed, 'REGISTRATION_CLOSED');
        return repo.insert({ ...input, passwordHash, role: 'admin' }, tx);
      });
      return session(staff);
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
