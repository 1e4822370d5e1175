import type { Knex } from 'knex';
import type { Connection } from '../db/knex';
import { runner, type Tx } from '../db/database';
import type { MirroredCartItem } from '../../contract/outreach';

/**
 * What the season's SMS need to know about guardians' phones (docs/sms.md, "The season by SMS"):
 * only a phone its guardian confirmed with the code, of a guardian who did not unsubscribe, gets
 * a non-transactional SMS.
 */

/** A cart due for its SMS: its guardian's confirmed phone, and address if any. */
export interface DueSmsCart {
  guardianId: number;
  schoolId: number;
  items: MirroredCartItem[];
  updatedAt: number;
  phone: string;
  email: string | null;
}

/** A phone that may get a reminder: confirmed, its guardian subscribed. */
export interface SmsGuardian {
  guardianId: number;
  phone: string;
}

const parseItems = (raw: unknown): MirroredCartItem[] => {
  try {
    const parsed: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
    return Array.isArray(parsed) ? (parsed as MirroredCartItem[]) : [];
  } catch {
    return [];
  }
};

const lower = (email: string) => email.trim().toLowerCase();

/** Guardians whose phone may get a non-transactional SMS. */
const reachable = (q: Knex.QueryBuilder): Knex.QueryBuilder => q.whereNotNull('g.phone').whereNotNull('g.phone_confirmed_at').whereNull('g.unsubscribed_at');

export function createSeasonSmsRepository(knex: Connection) {
  return {
    /** Non-empty carts of guardians with a confirmed phone, unchanged since `changedBefore` and changed after `changedAfter`. */
    async dueCarts(changedBefore: number, changedAfter: number): Promise<DueSmsCart[]> {
      const rows = (await reachable(knex('guardian_carts as c').join('guardians as g', 'g.id', 'c.guardian_id'))
        .whereNotNull('c.school_id')
        .andWhere('c.updated_at', '<=', changedBefore)
        .andWhere('c.updated_at', '>', changedAfter)
        .orderBy('c.updated_at')
        .select('c.guardian_id', 'c.school_id', 'c.items', 'c.updated_at', 'g.phone', 'g.email')) as {
        guardian_id: number;
        school_id: number;
        items: unknown;
        updated_at: number | string;
        phone: string;
        email: string | null;
      }[];
      return rows
        .map((row) => ({
          guardianId: Number(row.guardian_id),
          schoolId: Number(row.school_id),
          items: parseItems(row.items),
          updatedAt: Number(row.updated_at),
          phone: row.phone,
          email: row.email,
        }))
        .filter((cart) => cart.items.length > 0);
    },

    /** Whether an order was placed in the school at or after `since` with this address or this phone. */
    async orderedSince(contact: { email: string | null; phone: string }, schoolId: number, since: number): Promise<boolean> {
      const row = (await knex('orders')
        .where({ school_id: schoolId })
        .andWhere('created_at', '>=', since)
        .andWhere((w) => {
          w.where({ customer_phone: contact.phone });
          if (contact.email) w.orWhereRaw('lower(customer_email) = ?', [lower(contact.email)]);
        })
        .first('id')) as { id: string } | undefined;
      return Boolean(row);
    },

    /**
     * The guardian an order's reminder may reach by SMS: the one with the order's address, or with
     * its phone, whose phone is confirmed and who did not unsubscribe; null when none.
     */
    async guardianFor(contact: { email: string; phone: string | null }, tx?: Tx | null): Promise<SmsGuardian | null> {
      const rows = (await reachable(runner(knex, tx)('guardians as g'))
        .andWhere((w) => {
          w.where('g.email', lower(contact.email));
          if (contact.phone) w.orWhere('g.phone', contact.phone.trim());
        })
        .orderBy('g.id')
        .select('g.id', 'g.phone', 'g.email')) as { id: number; phone: string; email: string | null }[];
      // The address's own guardian first: the order was placed with it.
      const row = rows.find((r) => r.email !== null && lower(r.email) === lower(contact.email)) ?? rows[0];
      return row ? { guardianId: Number(row.id), phone: row.phone } : null;
    },

    /** The guardian's phone when it may still get SMS (withdrawing stale reminders), else null. */
    async reachablePhone(guardianId: number, tx?: Tx | null): Promise<string | null> {
      const row = (await reachable(runner(knex, tx)('guardians as g')).where('g.id', guardianId).first('g.phone')) as { phone: string } | undefined;
      return row?.phone ?? null;
    },

    /** The order's phone as the customer gave it (null when none). */
    async orderPhone(orderId: string, tx?: Tx | null): Promise<string | null> {
      const row = (await runner(knex, tx)('orders').where({ id: orderId }).first('customer_phone')) as { customer_phone: string | null } | undefined;
      return row?.customer_phone?.trim() || null;
    },
  };
}
export type SeasonSmsRepository = ReturnType<typeof createSeasonSmsRepository>;
