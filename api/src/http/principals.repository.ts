import type { Knex } from 'knex';
import type { StaffRole } from '../../contract/constants';

/** A staff account as a token check needs it. */
export interface StaffPrincipalRecord {
  id: number;
  role: StaffRole;
  email: string;
  /** Tokens issued before this time (epoch ms) are void: a password change or reset signs them out. */
  tokensValidAfter: number;
}

/** A customer account as a token check needs it. */
export interface CustomerPrincipalRecord {
  id: number;
  email: string;
  tokensValidAfter: number;
}

/** What authentication reads for each bearer token: the account it names, if it still exists. */
export interface PrincipalsRepository {
  staffById(id: number): Promise<StaffPrincipalRecord | undefined>;
  customerById(id: number): Promise<CustomerPrincipalRecord | undefined>;
}

export function createPrincipalsRepository(knex: Knex): PrincipalsRepository {
  return {
    async staffById(id) {
      const row = await knex('staff').where({ id }).first('id', 'role', 'email', 'tokens_valid_after');
      return row ? { id: row.id, role: row.role, email: row.email, tokensValidAfter: Number(row.tokens_valid_after) } : undefined;
    },
    async customerById(id) {
      const row = await knex('customers').where({ id }).first('id', 'email', 'tokens_valid_after');
      return row ? { id: row.id, email: row.email, tokensValidAfter: Number(row.tokens_valid_after) } : undefined;
    },
  };
}
