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

/** A staff password reset link as stored: only the token's digest (docs/accounts.md, "Staff passwords"). */
export interface StaffResetTokenRecord {
  id: number;
  staffId: number;
  /** Epoch ms. */
  expiresAt: number;
  /** Epoch ms; null while unused. */
  usedAt: number | null;
}

interface StaffResetTokenRow {
  id: number;
  staff_id: number;
  token_hash: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
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

    /** A new password hash, and every token issued before `at` (epoch ms) is void. */
    async setPassword(id: number, passwordHash: string, at: number, tx?: Tx): Promise<void> {
      await runner(knex, tx)('staff').where({ id }).update({ password_hash: passwordHash, tokens_valid_after: at });
    },

    /** Every token issued before `at` (epoch ms) is void; false when the account is gone. */
    async revokeTokens(id: number, at: number, tx?: Tx): Promise<boolean> {
      return Number(await runner(knex, tx)('staff').where({ id }).update({ tokens_valid_after: at })) === 1;
    },

    async insertResetToken(input: { staffId: number; tokenHash: string; createdAt: number; expiresAt: number }, tx?: Tx): Promise<void> {
      await runner(knex, tx)('staff_reset_tokens').insert({
        staff_id: input.staffId,
        token_hash: input.tokenHash,
        expires_at: input.expiresAt,
        used_at: null,
        created_at: input.createdAt,
      });
    },

    async findResetToken(tokenHash: string, tx?: Tx): Promise<StaffResetTokenRecord | undefined> {
      const row = (await runner(knex, tx)('staff_reset_tokens').where({ token_hash: tokenHash }).first()) as StaffResetTokenRow | undefined;
      return row
        ? { id: Number(row.id), staffId: Number(row.staff_id), expiresAt: Number(row.expires_at), usedAt: row.used_at === null ? null : Number(row.used_at) }
        : undefined;
    },

    /** Marks the token used only if still unused and unexpired; false when another use won the race. */
    async consumeResetToken(id: number, at: number, tx?: Tx): Promise<boolean> {
      const affected = await runner(knex, tx)('staff_reset_tokens').where({ id }).whereNull('used_at').where('expires_at', '>', at).update({ used_at: at });
      return Number(affected) === 1;
    },

    /** Voids the account's unused reset tokens. */
    async voidResetTokens(staffId: number, at: number, tx?: Tx): Promise<void> {
      await runner(knex, tx)('staff_reset_tokens').where({ staff_id: staffId }).whereNull('used_at').update({ used_at: at });
    },
  };
}
export type StaffRepository = ReturnType<typeof createStaffRepository>;
