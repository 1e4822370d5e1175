import type { Knex } from 'knex';
import type { StaffRole } from '../../contract/constants';
import type { StaffUser } from '../../contract/auth';
import { insertedId, now, toIso, count } from '../db/knex';

export interface StaffRow {
  id: number;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  role: StaffRole;
  created_at: number;
}

export function presentStaff(row: StaffRow): StaffUser {
  return {
    id: Number(row.id),
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    createdAt: toIso(row.created_at),
  };
}

export function createStaffRepository(knex: Knex) {
  return {
    findByEmail: (email: string, trx: Knex = knex): Promise<StaffRow | undefined> => trx('staff').where({ email }).first(),
    findById: (id: number, trx: Knex = knex): Promise<StaffRow | undefined> => trx('staff').where({ id }).first(),
    list: (): Promise<StaffRow[]> => knex('staff').orderBy([{ column: 'role' }, { column: 'last_name' }, { column: 'first_name' }]),
    async count(trx: Knex = knex, role?: StaffRole): Promise<number> {
      const query = trx('staff');
      if (role) query.where({ role });
      return count(await query.count({ count: '*' }).first());
    },
    async insert(
      input: { email: string; passwordHash: string; firstName: string; lastName: string; role: StaffRole },
      trx: Knex = knex,
    ): Promise<StaffRow> {
      const id = insertedId(
        await trx('staff').insert({
          email: input.email,
          password_hash: input.passwordHash,
          first_name: input.firstName,
          last_name: input.lastName,
          role: input.role,
          created_at: now(),
        }),
      );
      const row = await trx('staff').where({ id }).first();
      return row as StaffRow;
    },
    delete: (id: number, trx: Knex = knex) => trx('staff').where({ id }).delete(),
  };
}
export type StaffRepository = ReturnType<typeof createStaffRepository>;
