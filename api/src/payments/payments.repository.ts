import type { Knex } from 'knex';
import { now } from '../db/knex';

export interface PaymentRow {
  id: number;
  order_id: string;
  gateway: string;
  paygate_id: string;
  pay_request_id: string | null;
  reference: string;
  amount_thebe: number;
  currency: string;
  status: 'initiated' | 'pending' | 'completed' | 'failed';
  transaction_status: number | null;
  result_code: string | null;
  last_queried_at: number | null;
  created_at: number;
}

/** Payment states that a gateway answer may still move (forward only). */
export const OPEN_PAYMENT_STATES = ['initiated', 'pending'] as const;

export function createPaymentsRepository(knex: Knex) {
  return {
    async insert(row: Omit<PaymentRow, 'id' | 'status' | 'transaction_status' | 'result_code' | 'last_queried_at' | 'created_at'>): Promise<void> {
      const at = now();
      await knex('payments').insert({ ...row, status: 'initiated', created_at: at, updated_at: at });
    },
    byPayRequestId: (payRequestId: string, db: Knex = knex): Promise<PaymentRow | undefined> =>
      db('payments').where({ pay_request_id: payRequestId }).first(),
    latestOpenForOrder: (orderId: string): Promise<PaymentRow | undefined> =>
      knex('payments')
        .where({ order_id: orderId })
        .whereIn('status', OPEN_PAYMENT_STATES)
        .whereNotNull('pay_request_id')
        .orderBy('id', 'desc')
        .first(),
    latestForOrder: (orderId: string): Promise<PaymentRow | undefined> =>
      knex('payments').where({ order_id: orderId }).orderBy('id', 'desc').first(),
    /** Claims the right to query now: at most one query per payment per interval, across processes. */
    async claimQuery(id: number, intervalMs: number): Promise<boolean> {
      const at = now();
      const updated = await knex('payments')
        .where({ id })
        .where((q) => q.whereNull('last_queried_at').orWhere('last_queried_at', '<=', at - intervalMs))
        .update({ last_queried_at: at });
      return updated === 1;
    },
    /** Open payments old enough that their notify should have come. */
    openOlderThan: (ms: number, limit = 50): Promise<PaymentRow[]> =>
      knex('payments')
        .whereIn('status', OPEN_PAYMENT_STATES)
        .whereNotNull('pay_request_id')
        .where('created_at', '<=', now() - ms)
        .where('created_at', '>=', now() - 24 * 3600_000)
        .orderBy('created_at')
        .limit(limit),
    async recordCallback(
      db: Knex,
      entry: { paymentId: number | null; kind: 'notify' | 'return' | 'query'; body: string; checksumOk: boolean; outcome: string },
    ): Promise<void> {
      await db('payment_callbacks').insert({
        payment_id: entry.paymentId,
        kind: entry.kind,
        body: entry.body,
        checksum_ok: entry.checksumOk ? 1 : 0,
        outcome: entry.outcome.slice(0, 60),
        created_at: now(),
      });
    },
  };
}
export type PaymentsRepository = ReturnType<typeof createPaymentsRepository>;
