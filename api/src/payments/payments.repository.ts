import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { OrderStatus, PaymentStatus } from '../../contract/constants';
import type { PaymentMethodId } from '../../contract/payment-methods';
import { runner, type Tx } from '../db/database';
import { now } from '../db/knex';
import { MAX_REJECTED_CALLBACKS, STORED_CALLBACK_CHARS } from './callback-limits';

export type PaymentState = 'initiated' | 'pending' | 'completed' | 'failed';

export interface PaymentRecord {
  id: number;
  orderId: string;
  /** 'sandbox' or 'paygate'; 'free' for an order of total zero, paid without the gateway (docs/packages-and-coupons.md, "A total of zero"). */
  gateway: string;
  paygateId: string;
  payRequestId: string | null;
  reference: string;
  amountThebe: number;
  currency: string;
  status: PaymentState;
  /** PayGate's TRANSACTION_STATUS once a final answer was applied. */
  transactionStatus: number | null;
  resultCode: string | null;
  /** Epoch ms. */
  lastQueriedAt: number | null;
  /** Epoch ms. */
  createdAt: number;
  /** The method the parent chose; null for a payment begun before methods existed (a card payment). */
  method: PaymentMethodId | null;
  /** What the gateway reported: PAY_METHOD ("CC", "EW", "BT") and PAY_METHOD_DETAIL ("Visa", "SID"). */
  payMethod: string | null;
  payMethodDetail: string | null;
  /** Epoch ms: the gateway first answered "received, final result later" (status 5). */
  receivedAt: number | null;
  /** Epoch ms: a received bank transfer expires then unless confirmed (docs/payments.md, "Payments that settle later"). */
  expiresAt: number | null;
  /** Epoch ms: it did expire; a later approval is "paid after expiry". */
  expiredAt: number | null;
}

export type NewPayment = Pick<PaymentRecord, 'orderId' | 'gateway' | 'paygateId' | 'payRequestId' | 'reference' | 'amountThebe' | 'currency' | 'method'>;

/** A final gateway answer applied to a payment. */
export interface PaymentSettlement {
  status: 'completed' | 'failed';
  transactionStatus: number;
  resultCode: string | null;
  resultDesc: string;
  transactionId: string | null;
  /** PAY_METHOD and PAY_METHOD_DETAIL as reported; empty ones leave what is stored. */
  payMethod: string;
  payMethodDetail: string;
}

/** What paying needs to know about an order. */
export interface PayableOrder {
  id: string;
  totalThebe: number;
  customerEmail: string;
  paymentStatus: PaymentStatus;
  orderStatus: OrderStatus;
  /** Whether a payment request of the order may still be open (initiated or pending, with a PAY_REQUEST_ID). */
  hasOpenRequest: boolean;
  /** Lines whose photo is gone (deleted, or erased at the family's request): such an order cannot be paid. */
  linesWithoutPhoto: number;
  /** It was placed with a coupon (an order never gains one later): paying it may have to take a use again. */
  placedWithCoupon: boolean;
}

export interface CallbackEntry {
  paymentId: number | null;
  kind: 'notify' | 'return' | 'query';
  body: string;
  checksumOk: boolean;
  outcome: string;
}

interface PaymentRow {
  id: number;
  order_id: string;
  gateway: string;
  paygate_id: string;
  pay_request_id: string | null;
  reference: string;
  amount_thebe: number;
  currency: string;
  status: PaymentState;
  transaction_status: number | null;
  result_code: string | null;
  last_queried_at: number | null;
  created_at: number;
  method: string | null;
  pay_method: string | null;
  pay_method_detail: string | null;
  received_at: number | null;
  expires_at: number | null;
  expired_at: number | null;
}

const msOrNull = (value: number | string | null | undefined): number | null => (value === null || value === undefined ? null : Number(value));

function toRecord(row: PaymentRow): PaymentRecord {
  return {
    id: Number(row.id),
    orderId: row.order_id,
    gateway: row.gateway,
    paygateId: row.paygate_id,
    payRequestId: row.pay_request_id,
    reference: row.reference,
    amountThebe: Number(row.amount_thebe),
    currency: row.currency,
    status: row.status,
    transactionStatus: row.transaction_status === null ? null : Number(row.transaction_status),
    resultCode: row.result_code,
    lastQueriedAt: msOrNull(row.last_queried_at),
    createdAt: Number(row.created_at),
    method: (row.method as PaymentMethodId | null) ?? null,
    payMethod: row.pay_method ?? null,
    payMethodDetail: row.pay_method_detail ?? null,
    receivedAt: msOrNull(row.received_at),
    expiresAt: msOrNull(row.expires_at),
    expiredAt: msOrNull(row.expired_at),
  };
}

const maybe = (row: PaymentRow | undefined): PaymentRecord | undefined => (row ? toRecord(row) : undefined);

/** Payment states that a gateway answer may still move (forward only). */
export const OPEN_PAYMENT_STATES = ['initiated', 'pending'] as const;
/** An open payment is asked about (and may still be approved) for this long after it was opened (docs/payments.md, "The sweep"). */
export const OPEN_PAYMENT_WINDOW_MS = 24 * 3600_000;

/**
 * Narrows a payments query (optionally aliased) to the payments that may still be approved:
 * open, sent to the gateway, and opened (or received by the gateway) within OPEN_PAYMENT_WINDOW_MS,
 * or a received bank transfer before its deadline (docs/payments.md, "Payments that settle later").
 * Deletes and erasure wait for these (docs/access.md, "Photos that orders need").
 */
export function whereMayStillBePaid<Q extends Knex.QueryBuilder>(query: Q, at: number, alias?: string): Q {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return query
    .whereIn(column('status'), OPEN_PAYMENT_STATES)
    .whereNotNull(column('pay_request_id'))
    .where((open) =>
      open
        .where(column('created_at'), '>=', at - OPEN_PAYMENT_WINDOW_MS)
        .orWhere(column('received_at'), '>=', at - OPEN_PAYMENT_WINDOW_MS)
        .orWhere(column('expires_at'), '>=', at),
    ) as Q;
}

export function createPaymentsRepository(knex: Knex) {
  return {
    async insert(payment: NewPayment, tx?: Tx): Promise<void> {
      const at = now();
      await runner(knex, tx)('payments').insert({
        order_id: payment.orderId,
        gateway: payment.gateway,
        paygate_id: payment.paygateId,
        pay_request_id: payment.payRequestId,
        reference: payment.reference,
        amount_thebe: payment.amountThebe,
        currency: payment.currency,
        method: payment.method,
        status: 'initiated',
        created_at: at,
        updated_at: at,
      });
    },
    /** The completed payment of amount 0 that records an order of total zero (no gateway request). */
    async insertFree(orderId: string, paygateId: string, gatewayName: string, currency: string, tx: Tx): Promise<void> {
      const at = now();
      await runner(knex, tx)('payments').insert({
        order_id: orderId,
        gateway: gatewayName,
        paygate_id: paygateId,
        pay_request_id: null,
        reference: orderId,
        amount_thebe: 0,
        currency,
        method: null,
        status: 'completed',
        created_at: at,
        updated_at: at,
      });
    },
    byPayRequestId: async (payRequestId: string, tx?: Tx): Promise<PaymentRecord | undefined> =>
      maybe(await runner(knex, tx)<PaymentRow>('payments').where({ pay_request_id: payRequestId }).first()),

    /** The same, locked for the transaction: a row lock on MySQL; SQLite serialises writers on its single connection. */
    async lockByPayRequestId(payRequestId: string, tx: Tx): Promise<PaymentRecord | undefined> {
      const db = runner(knex, tx);
      const query = db<PaymentRow>('payments').where({ pay_request_id: payRequestId });
      if (db.client.config.client === 'mysql2') query.forUpdate();
      return maybe(await query.first());
    },
    /** The order's newest open request; of one method when asked (card includes payments begun before methods existed). */
    latestOpenForOrder: async (orderId: string, method?: PaymentMethodId): Promise<PaymentRecord | undefined> => {
      const query = knex<PaymentRow>('payments').where({ order_id: orderId }).whereIn('status', OPEN_PAYMENT_STATES).whereNotNull('pay_request_id');
      if (method === 'card') query.where((q) => q.where('method', 'card').orWhereNull('method'));
      else if (method) query.where('method', method);
      return maybe(await query.orderBy('id', 'desc').first());
    },
    latestForOrder: async (orderId: string): Promise<PaymentRecord | undefined> =>
      maybe(await knex<PaymentRow>('payments').where({ order_id: orderId }).orderBy('id', 'desc').first()),
    /** Claims the right to query now: at most one query per payment per interval, across processes. */
    async claimQuery(id: number, intervalMs: number): Promise<boolean> {
      const at = now();
      const updated = await knex('payments')
        .where({ id })
        .where((q) => q.whereNull('last_queried_at').orWhere('last_queried_at', '<=', at - intervalMs))
        .update({ last_queried_at: at });
      return updated === 1;
    },
    /**
     * Open payments old enough that their notify should have come and due for a query (never
     * queried, or not within `intervalMs`), the longest unasked first: payments asked a moment ago
     * never take the places of those still waiting, however many are abandoned (docs/payments.md, "The sweep").
     */
    openDue: async (olderThanMs: number, intervalMs: number, limit: number): Promise<PaymentRecord[]> => {
      const at = now();
      return (
        await knex<PaymentRow>('payments')
          .where('status', 'initiated')
          .whereNotNull('pay_request_id')
          .where('created_at', '<=', at - olderThanMs)
          .where('created_at', '>=', at - OPEN_PAYMENT_WINDOW_MS)
          .where((q) => q.whereNull('last_queried_at').orWhere('last_queried_at', '<=', at - intervalMs))
          .orderByRaw('case when last_queried_at is null then 0 else 1 end')
          .orderBy([{ column: 'last_queried_at' }, { column: 'created_at' }, { column: 'id' }])
          .limit(limit)
      ).map(toRecord);
    },

    /**
     * Received payments of a method that settles later, due for a gentle query: asked less often
     * the older they are (docs/payments.md, "The sweep"), never past `until` of their age, the
     * longest unasked first. Their own batch, so they never hold the places of card payments.
     */
    receivedDue: async (schedule: readonly { youngerThanMs: number; everyMs: number }[], untilMs: number, limit: number): Promise<PaymentRecord[]> => {
      const at = now();
      const cases = schedule.map(() => 'when created_at > ? then ?').join(' ');
      const bindings = schedule.flatMap(({ youngerThanMs, everyMs }) => [at - youngerThanMs, at - everyMs]);
      const fallback = schedule.at(-1)?.everyMs ?? 3600_000;
      return (
        await knex<PaymentRow>('payments')
          .where('status', 'pending')
          .whereNotNull('pay_request_id')
          .where('created_at', '>=', at - untilMs)
          .where((q) => q.whereNull('last_queried_at').orWhereRaw(`last_queried_at <= case ${cases} else ? end`, [...bindings, at - fallback]))
          .orderByRaw('case when last_queried_at is null then 0 else 1 end')
          .orderBy([{ column: 'last_queried_at' }, { column: 'id' }])
          .limit(limit)
      ).map(toRecord);
    },

    /** Moves an open payment to its final state; 0 when it was already final (nothing changes twice). */
    settle: (paymentId: number, settlement: PaymentSettlement, tx?: Tx): Promise<number> =>
      runner(knex, tx)('payments')
        .where({ id: paymentId })
        .whereIn('status', OPEN_PAYMENT_STATES)
        .update(settlementColumns(settlement)),

    /**
     * The one exception to forward only (docs/payments.md, "Paid after expiry"): an approval for a
     * payment that had expired moves it from failed to completed, once.
     */
    reviveExpired: (paymentId: number, settlement: PaymentSettlement, tx?: Tx): Promise<number> =>
      runner(knex, tx)('payments')
        .where({ id: paymentId, status: 'failed' })
        .whereNotNull('expired_at')
        .update(settlementColumns(settlement)),

    /**
     * The gateway received the payment and will settle it later (status 5): an initiated payment
     * becomes pending, once; a late status 5 after the final answer changes nothing.
     */
    markReceived: (
      paymentId: number,
      received: { transactionStatus: number; resultCode: string | null; resultDesc: string; payMethod: string; payMethodDetail: string; expiresAfterMs: number | null },
      tx?: Tx,
      at = now(),
    ): Promise<number> =>
      runner(knex, tx)('payments')
        .where({ id: paymentId, status: 'initiated' })
        .update({
          status: 'pending',
          transaction_status: received.transactionStatus,
          result_code: received.resultCode,
          result_desc: received.resultDesc.slice(0, 255),
          ...reportedMethod(received),
          received_at: at,
          expires_at: received.expiresAfterMs === null ? null : at + received.expiresAfterMs,
          updated_at: at,
        }),

    /** Received payments whose deadline has passed, oldest deadline first. */
    expiredDue: async (limit: number): Promise<PaymentRecord[]> =>
      (
        await knex<PaymentRow>('payments')
          .where('status', 'pending')
          .whereNotNull('expires_at')
          .where('expires_at', '<=', now())
          .orderBy([{ column: 'expires_at' }, { column: 'id' }])
          .limit(limit)
      ).map(toRecord),

    /** A received payment past its deadline becomes failed (expired), once. */
    expire: (paymentId: number, tx?: Tx): Promise<number> =>
      runner(knex, tx)('payments')
        .where({ id: paymentId, status: 'pending' })
        .whereNotNull('expires_at')
        .where('expires_at', '<=', now())
        .update({ status: 'failed', expired_at: now(), result_desc: 'Expired: not confirmed in time', updated_at: now() }),

    /** Whether this is the order's latest payment (a newer one means the parent is paying another way). */
    async isLatestForOrder(orderId: string, paymentId: number, tx?: Tx): Promise<boolean> {
      const row = await runner(knex, tx)('payments').where({ order_id: orderId }).max({ id: 'id' }).first();
      return Number(row?.id) === paymentId;
    },

    /** The order as its expiry e-mail needs it: unpaid and not cancelled, or undefined. */
    async unpaidOpenOrder(orderId: string, tx?: Tx): Promise<{ id: string } | undefined> {
      const row = await runner(knex, tx)('orders').where({ id: orderId }).whereNot('payment_status', 'completed').whereNot('order_status', 'cancelled').first('id');
      return row ? { id: row.id } : undefined;
    },

    /** An approval arrived after its payment had expired: the order is flagged "Paid after expiry: check". */
    countPaidAfterExpiry: (orderId: string, tx?: Tx): Promise<number> => runner(knex, tx)('orders').where({ id: orderId }).increment('paid_after_expiry', 1),

    /**
     * Marks the order's payment completed and a pending order paid. True only for the one call that
     * completed the payment; false when another payment had already paid it.
     */
    async completeOrderPayment(orderId: string, tx?: Tx): Promise<boolean> {
      const db = runner(knex, tx);
      // A cancelled order is never paid by a late payment (docs/payments.md, "Paid after cancellation").
      const paid = await db('orders')
        .where({ id: orderId })
        .whereNot({ payment_status: 'completed' })
        .whereNot({ order_status: 'cancelled' })
        .update({ payment_status: 'completed', updated_at: Date.now() });
      await db('orders').where({ id: orderId, order_status: 'pending' }).update({ order_status: 'paid' });
      return paid === 1;
    },

    /**
     * An approved payment that did not pay the order: for a cancelled order it is counted as paid
     * after cancellation, else as a second payment of a paid order. Staff refund either. The order's
     * own statuses do not change, so it stays cancelled, unpaid and out of revenue.
     */
    async countUnneededPayment(orderId: string, tx?: Tx): Promise<'cancelled' | 'duplicate'> {
      const db = runner(knex, tx);
      const cancelled = await db('orders').where({ id: orderId, order_status: 'cancelled' }).increment('paid_after_cancel', 1);
      if (Number(cancelled) === 1) return 'cancelled';
      await db('orders').where({ id: orderId }).increment('duplicate_payments', 1);
      return 'duplicate';
    },

    /** An approval paid the order while these many of its lines were withdrawn: staff refund them (docs/payments.md, "Withdrawn photos are never charged"). */
    countPaidWithWithdrawn: (orderId: string, lines: number, tx?: Tx): Promise<number> =>
      runner(knex, tx)('orders').where({ id: orderId }).increment('paid_with_withdrawn', lines),

    /** A pending order's payment failed. */
    failOrderPayment: (orderId: string, tx?: Tx): Promise<number> =>
      runner(knex, tx)('orders').where({ id: orderId, payment_status: 'pending' }).update({ payment_status: 'failed', updated_at: Date.now() }),

    /**
     * An accepted callback: its body up to STORED_CALLBACK_CHARS, with the full body's size and hash.
     * `db` is the transaction to write in, or null (a connection of the caller's own is accepted too).
     */
    async recordCallback(db: Tx | Knex | null, entry: CallbackEntry): Promise<void> {
      await runner(knex, db as Tx | null)('payment_callbacks').insert({
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

/** PAY_METHOD and PAY_METHOD_DETAIL as the gateway reported them; an empty one (a cancel) keeps what is stored. */
function reportedMethod(reported: { payMethod: string; payMethodDetail: string }): Record<string, string> {
  return {
    ...(reported.payMethod && { pay_method: reported.payMethod.slice(0, 10) }),
    ...(reported.payMethodDetail && { pay_method_detail: reported.payMethodDetail.slice(0, 40) }),
  };
}

function settlementColumns(settlement: PaymentSettlement) {
  return {
    status: settlement.status,
    transaction_status: settlement.transactionStatus,
    result_code: settlement.resultCode,
    result_desc: settlement.resultDesc.slice(0, 255),
    transaction_id: settlement.transactionId,
    ...reportedMethod(settlement),
    updated_at: Date.now(),
  };
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
