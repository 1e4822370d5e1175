import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { now } from '../db/knex';
import { MAX_REJECTED_CALLBACKS, STORED_CALLBACK_CHARS } from './callback-limits';

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
    /** An accepted callback: its body up to STORED_CALLBACK_CHARS, with the full body's size and hash. */
    async recordCallback(
      db: Knex,
      entry: { paymentId: number | null; kind: 'notify' | 'return' | 'query'; body: string; checksumOk: boolean; outcome: string },
    ): Promise<void> {
      await db('payment_callbacks').insert({
        payment_id: entry.paymentId,
        kind: entry.kind,
        body: entry.body.slice(0, STORED_CALLBACK_CHARS),
        body_bytes: Buffer.byteLength(entry.body, 'utf8'),
        body_sha256: sha256(entry.body),
        checksum_ok: entry.checksumOk ? 1 : 0,
        outcome: entry.outcome.slice(0, 60),
        created_at: now(),
      });
    },

    /**
     * A refused callback (anyone can post one): only its size, hash and the reason are kept, and
     * only the newest `keep` of them, so junk posted in bulk cannot fill the database.
     */
    async recordRejected(entry: { kind: 'notify' | 'return'; body: string; reason: string }, keep = MAX_REJECTED_CALLBACKS): Promise<void> {
      const [inserted] = await knex('rejected_callbacks').insert({
        kind: entry.kind,
        body_bytes: Buffer.byteLength(entry.body, 'utf8'),
        body_sha256: sha256(entry.body),
        reason: entry.reason.slice(0, 60),
        created_at: now(),
      });
      const id = Number(inserted);
      if (Number.isSafeInteger(id) && id > keep) await knex('rejected_callbacks').where('id', '<=', id - keep).delete();
    },

    /**
     * Claims the right to open a gateway payment for an order; false while another request holds
     * an unexpired claim. Atomic on both databases (one conditional update).
     */
    async claimInitiation(orderId: string, ttlMs: number): Promise<boolean> {
      const at = now();
      const updated = await knex('orders')
        .where({ id: orderId })
        .where((q) => q.whereNull('payment_claimed_until').orWhere('payment_claimed_until', '<', at))
        .update({ payment_claimed_until: at + ttlMs });
      return updated === 1;
    },

    releaseInitiation: (orderId: string): Promise<number> => knex('orders').where({ id: orderId }).update({ payment_claimed_until: null }),

    /** The order's new payment request is noted and the claim released, in one statement. */
    recordRequestAndRelease: (orderId: string, payRequestId: string): Promise<number> =>
      knex('orders').where({ id: orderId }).update({ payment_reference: payRequestId, payment_claimed_until: null }),
  };
}
export type PaymentsRepository = ReturnType<typeof createPaymentsRepository>;

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
