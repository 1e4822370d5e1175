import type { CustomerUser } from '../../contract/auth';
import { toIso } from '../db/knex';
import type { CustomerRecord } from './customers.repository';

/** Allow-listed output of a customer account: never its password hash or token cut-off. */
export function presentCustomer(customer: CustomerRecord): CustomerUser {
  return {
    id: customer.id,
    email: customer.email,
    firstName: customer.firstName,
    lastName: customer.lastName,
    phone: customer.phone,
    createdAt: toIso(customer.createdAt),
  };
}

/** A signed-in customer: the bearer token and who it is for. */
export function presentSession(session: { token: string; customer: CustomerRecord }): { token: string; user: CustomerUser } {
  return { token: session.token, user: presentCustomer(session.customer) };
}
