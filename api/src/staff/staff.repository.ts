import type { Knex } from 'knex';
import type { StaffRole } from '../../contract/constants';
import { runner, type Tx } from '../db/database';
import { insertedId, now, toIso, count } from '../db/knex';

/** A staff account as the service sees it; the password hash never leaves the service. */
export interface StaffRecord {
  id: number;
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  role: StaffRole;
  createdAt: string;
}

interface StaffRow {
  id: number;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  role: StaffRole;
  created_at: number;
}

function toRecord(row: StaffRow): StaffRecord {
  return {
    id: Number(row.id),
    email: row.email,
    passwordHash: row.password_hash,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    createdAt: toIso(row.created_at),
  };
}

export function createStaffRepository(knex: Knex) {
  async function findById(id: number, tx?: Tx): Promise<StaffRecord | undefined> {
    const row = (await runner(knex, tx)('staff').where({ id }).first()) as StaffRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  return {
    findById,

    async findByEmail(email: string, tx?: Tx): Promise<StaffRecord | undefined> {
      const row = (await runner(knex, tx)('staff').where({ email }).first()) as StaffRow | undefined;
      return row ? toRecord(row) : undefined;
    },

    async list(): Promise<StaffRecord[]> {
      const rows = (await knex('staff').orderBy([{ column: 'role' }, { column: 'last_name' }, { column: 'first_name' }])) as StaffRow[];
      return rows.map(toRecord);
    },

    /** Every staff account, or only those with `role`. */
    async count(role?: StaffRole, tx?: Tx): Promise<number> {
      const query = runner(knex, tx)('staff');
      if (role) query.where({ role });
      return count(await query.count({ count: '*' }).first());
    },

    async insert(input: { email: string; passwordHash: string; firstName: string; lastName: string; role: StaffRole }, tx?: Tx): Promise<StaffRecord> {
      const id = insertedId(
        await runner(knex, tx)('staff').insert({
          email: input.email,
          password_hash: input.passwordHash,
          first_name: input.firstName,
          last_name: input.lastName,
          role: input.role,
          created_at: now(),
        }),
      );
      return (await findById(id, tx)) as StaffRecord;
    },

    async delete(id: number, tx?: Tx): Promise<void> {
      await runner(knex, tx)('staff').where({ id }).delete();
    },
  };
}
export type StaffRepository = ReturnType<typeof createStaffRepository>;
