import type { Knex } from 'knex';
import { runner, type Tx } from '../db/database';
import { insertedId, now } from '../db/knex';

export interface CustomerRecord {
  id: number;
  email: string;
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  phone: string | null;
  /** Epoch ms: customer tokens issued before this are refused. */
  tokensValidAfter: number;
  /** Epoch ms. */
  createdAt: number;
}

export interface ResetTokenRecord {
  id: number;
  customerId: number;
  tokenHash: string;
  /** Epoch ms. */
  expiresAt: number;
  /** Epoch ms; null while unused. */
  usedAt: number | null;
  createdAt: number;
}

export interface NewCustomer {
  email: string;
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  phone?: string | null;
}

interface CustomerRow {
  id: number;
  email: string;
  password_hash: string | null;
  first_name: string;
  last_name: string;
  phone: string | null;
  tokens_valid_after: number;
  created_at: number;
}

interface ResetTokenRow {
  id: number;
  customer_id: number;
  token_hash: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

function toRecord(row: CustomerRow): CustomerRecord {
  return {
    id: Number(row.id),
    email: row.email,
    passwordHash: row.password_hash,
    firstName: row.first_name,
    lastName: row.last_name,
    phone: row.phone ?? null,
    tokensValidAfter: Number(row.tokens_valid_after),
    createdAt: Number(row.created_at),
  };
}

function toResetTokenRecord(row: ResetTokenRow): ResetTokenRecord {
  return {
    id: Number(row.id),
    customerId: Number(row.customer_id),
    tokenHash: row.token_hash,
    expiresAt: Number(row.expires_at),
    usedAt: row.used_at === null ? null : Number(row.used_at),
    createdAt: Number(row.created_at),
  };
}

const maybe = <R, T>(row: R | undefined, map: (row: R) => T): T | undefined => (row ? map(row) : undefined);

/** Customer accounts and their password reset tokens. Every query takes an optional transaction so the order flow can create customers inside its own. */
export function createCustomersRepository(knex: Knex) {
  return {
    findByEmail: async (email: string, tx?: Tx): Promise<CustomerRecord | undefined> =>
      maybe(await runner(knex, tx)<CustomerRow>('customers').where({ email }).first(), toRecord),

    /** A locking read: inside a MySQL transaction it sees rows committed after the snapshot began. */
    findByEmailForUpdate: async (email: string, tx?: Tx): Promise<CustomerRecord | undefined> =>
      maybe(await runner(knex, tx)<CustomerRow>('customers').where({ email }).forUpdate().first(), toRecord),

    findById: async (id: number, tx?: Tx): Promise<CustomerRecord | undefined> =>
      maybe(await runner(knex, tx)<CustomerRow>('customers').where({ id }).first(), toRecord),

    async insert(input: NewCustomer, tx?: Tx): Promise<CustomerRecord> {
      const db = runner(knex, tx);
      const row = {
        email: input.email,
        password_hash: input.passwordHash,
        first_name: input.firstName,
        last_name: input.lastName,
        phone: input.phone ?? null,
        tokens_valid_after: 0,
        created_at: now(),
      };
      // The record is what was written: no second round trip to read it back.
      return toRecord({ ...row, id: insertedId(await db('customers').insert(row)) });
    },

    setPassword: (id: number, passwordHash: string, tokensValidAfter: number, tx?: Tx) =>
      runner(knex, tx)('customers').where({ id }).update({ password_hash: passwordHash, tokens_valid_after: tokensValidAfter }),

    insertResetToken: (input: { customerId: number; tokenHash: string; createdAt: number; expiresAt: number }, tx?: Tx) =>
      runner(knex, tx)('password_reset_tokens').insert({
        customer_id: input.customerId,
        token_hash: input.tokenHash,
        expires_at: input.expiresAt,
        used_at: null,
        created_at: input.createdAt,
      }),

    findResetToken: async (tokenHash: string, tx?: Tx): Promise<ResetTokenRecord | undefined> =>
      maybe(await runner(knex, tx)<ResetTokenRow>('password_reset_tokens').where({ token_hash: tokenHash }).first(), toResetTokenRecord),

    /**
     * Marks the token used only if it is still unused and unexpired; the affected-row count tells a
     * request that lost a race with another use of the same token.
     */
    async consumeResetToken(id: number, at: number, tx?: Tx): Promise<boolean> {
      const affected = await runner(knex, tx)('password_reset_tokens')
        .where({ id })
        .whereNull('used_at')
        .where('expires_at', '>', at)
        .update({ used_at: at });
      return Number(affected) === 1;
    },

    /** Voids the customer's unused tokens (a used one keeps its own time for the record). */
    voidResetTokens: (customerId: number, at: number, tx?: Tx) =>
      runner(knex, tx)('password_reset_tokens').where({ customer_id: customerId }).whereNull('used_at').update({ used_at: at }),
  };
}
export type CustomersRepository = ReturnType<typeof createCustomersRepository>;
