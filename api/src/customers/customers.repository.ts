import type { Knex } from 'knex';
import type { CustomerUser } from '../../contract/auth';
import { insertedId, now, toIso } from '../db/knex';

export interface CustomerRow {
  id: number;
  email: string;
  password_hash: string | null;
  first_name: string;
  last_name: string;
  phone: string | null;
  tokens_valid_after: number;
  created_at: number;
}

export interface ResetTokenRow {
  id: number;
  customer_id: number;
  token_hash: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export function presentCustomer(row: CustomerRow): CustomerUser {
  return {
    id: Number(row.id),
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    phone: row.phone ?? null,
    createdAt: toIso(row.created_at),
  };
}

export interface NewCustomer {
  email: string;
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  phone?: string | null;
}

/** Every query takes an optional transaction so the order flow can create customers inside its own. */
export function createCustomersRepository(knex: Knex) {
  return {
    findByEmail: (email: string, trx: Knex = knex): Promise<CustomerRow | undefined> => trx('customers').where({ email }).first(),

    /** A locking read: inside a MySQL transaction it sees rows committed after the snapshot began. */
    findByEmailForUpdate: (email: string, trx: Knex): Promise<CustomerRow | undefined> =>
      trx('customers').where({ email }).forUpdate().first(),

    findById: (id: number, trx: Knex = knex): Promise<CustomerRow | undefined> => trx('customers').where({ id }).first(),

    async insert(input: NewCustomer, trx: Knex = knex): Promise<CustomerRow> {
      const id = insertedId(
        await trx('customers').insert({
          email: input.email,
          password_hash: input.passwordHash,
          first_name: input.firstName,
          last_name: input.lastName,
          phone: input.phone ?? null,
          tokens_valid_after: 0,
          created_at: now(),
        }),
      );
      return (await trx('customers').where({ id }).first()) as CustomerRow;
    },

    setPassword: (id: number, passwordHash: string, tokensValidAfter: number, trx: Knex = knex) =>
      trx('customers').where({ id }).update({ password_hash: passwordHash, tokens_valid_after: tokensValidAfter }),

    insertResetToken: (input: { customerId: number; tokenHash: string; createdAt: number; expiresAt: number }, trx: Knex = knex) =>
      trx('password_reset_tokens').insert({
        customer_id: input.customerId,
        token_hash: input.tokenHash,
        expires_at: input.expiresAt,
        used_at: null,
        created_at: input.createdAt,
      }),

    findResetToken: (tokenHash: string, trx: Knex = knex): Promise<ResetTokenRow | undefined> =>
      trx('password_reset_tokens').where({ token_hash: tokenHash }).first(),

    /**
     * Marks the token used only if it is still unused and unexpired; the affected-row count tells a
     * request that lost a race with another use of the same token.
     */
    async consumeResetToken(id: number, at: number, trx: Knex = knex): Promise<boolean> {
      const affected = await trx('password_reset_tokens')
        .where({ id })
        .whereNull('used_at')
        .where('expires_at', '>', at)
        .update({ used_at: at });
      return Number(affected) === 1;
    },

    /** Voids the customer's unused tokens (a used one keeps its own time for the record). */
    voidResetTokens: (customerId: number, at: number, trx: Knex = knex) =>
      trx('password_reset_tokens').where({ customer_id: customerId }).whereNull('used_at').update({ used_at: at }),
  };
}
export type CustomersRepository = ReturnType<typeof createCustomersRepository>;
