import type { Knex } from 'knex';
import { COUNTRY, CURRENCY } from '../../contract/constants';
import { ORDER_MSG } from '../../contract/messages';
import type { Logger } from '../logger';
import { conflict, notFound } from '../http/errors';
import { checksumEquals, encodeFormPairs, pairValue, returnChecksum, verifyPostedChecksum, type FormPairs } from './paygate/checksum';
import type { PayGateClient } from './paygate/client';
import { parsePayGateResult, type PayGateResult } from './paygate/result';
import { createPaymentsRepository, OPEN_PAYMENT_STATES, type PaymentRow } from './payments.repository';

export interface Gateway {
  kind: 'sandbox' | 'paygate';
  paygateId: string;
  secret: string;
  client: PayGateClient;
}

export interface PaymentsOptions {
  knex: Knex;
  logger: Logger;
  publicUrl: string;
  gateway: Gateway;
  /** A pending order read this long after the last query is queried again (D6: "every few seconds"). */
  queryIntervalMs: number;
  /** Called once, after commit, by whichever answer moved the order to paid. */
  onPaid(orderId: string): Promise<void>;
}

type Transition = 'completed' | 'failed' | 'pending';

/** TRANSACTION_STATUS to our payment state: 1 approved; 2, 3, 4, 7 final refusals; 0 and 5 not final. */
function transitionFor(status: number): Transition {
  if (status === 1) return 'completed';
  if ([2, 3, 4, 7].includes(status)) return 'failed';
  return 'pending';
}

/**
 * The money path (D6; checklist H4–H8). Gateway answers are verified, matched to a payment only
 * through checksummed fields, checked for PAYGATE_ID, AMOUNT and CURRENCY, and applied forward
 * only inside one transaction with conditional updates, so duplicates and races change nothing
 * twice. Every raw callback is stored.
 */
export function createPaymentsService(options: PaymentsOptions) {
  const { knex, logger, gateway } = options;
  const repo = createPaymentsRepository(knex);

  async function initiate(orderId: string) {
    const order = await knex('orders').where({ id: orderId }).first('id', 'total_thebe', 'customer_email', 'payment_status', 'order_status');
    if (!order) throw notFound(ORDER_MSG.orderNotFound);
    if (order.payment_status === 'completed') throw conflict(ORDER_MSG.alreadyPaid, 'ALREADY_PAID');
    if (order.order_status === 'cancelled') throw conflict(ORDER_MSG.orderCancelled, 'ORDER_CANCELLED');
    const amountThebe = Number(order.total_thebe);
    const result = await gateway.client.initiate({
      reference: orderId,
      amountThebe,
      currency: CURRENCY,
      country: COUNTRY,
      email: order.customer_email,
      returnUrl: `${options.publicUrl}/api/payment/return?orderId=${encodeURIComponent(orderId)}`,
      notifyUrl: `${options.publicUrl}/api/payment/notify`,
    });
    await repo.insert({
      order_id: orderId,
      gateway: gateway.kind,
      paygate_id: gateway.paygateId,
      pay_request_id: result.payRequestId,
      reference: orderId,
      amount_thebe: amountThebe,
      currency: CURRENCY,
    });
    await knex('orders').where({ id: orderId }).update({ payment_reference: result.payRequestId });
    return result;
  }

  /** Applies a verified gateway result. Returns a short outcome for the callback log. */
  async function apply(kind: 'notify' | 'query', raw: string, result: PayGateResult): Promise<{ outcome: string; accepted: boolean }> {
    let paidOrder: string | null = null;
    const outcome = await knex.transaction(async (trx) => {
      const payment = await lockPayment(trx, result.payRequestId);
      const reject = async (why: string) => {
        await repo.recordCallback(trx, { paymentId: payment?.id ?? null, kind, body: raw, checksumOk: true, outcome: why });
        return { outcome: why, accepted: false };
      };
      if (!payment) return reject('unknown PAY_REQUEST_ID');
      if (result.reference !== payment.reference) return reject('REFERENCE mismatch');
      if (result.paygateId !== payment.paygate_id) return reject('PAYGATE_ID mismatch');
      if (result.amount !== Number(payment.amount_thebe)) return reject('AMOUNT mismatch');
      if (result.currency !== payment.currency) return reject('CURRENCY mismatch');

      const next = transitionFor(result.transactionStatus);
      let note = `status ${result.transactionStatus}: `;
      if (next === 'pending') {
        note += 'not final';
      } else {
        const moved = await trx('payments')
          .where({ id: payment.id })
          .whereIn('status', OPEN_PAYMENT_STATES)
          .update({
            status: next,
            transaction_status: result.transactionStatus,
            result_code: result.resultCode,
            result_desc: result.resultDesc.slice(0, 255),
            transaction_id: result.transactionId,
            updated_at: Date.now(),
          });
        if (moved === 0) {
          // Already final: a repeat is fine; a contradiction (declined after paid) is kept for review.
          note += payment.status === next ? `repeat of ${next}` : `ignored: payment already ${payment.status}`;
        } else if (next === 'completed') {
          const paid = await trx('orders').where({ id: payment.order_id }).whereNot({ payment_status: 'completed' }).update({ payment_status: 'completed', updated_at: Date.now() });
          await trx('orders').where({ id: payment.order_id, order_status: 'pending' }).update({ order_status: 'paid' });
          if (paid === 1) paidOrder = payment.order_id;
          note += 'order paid';
        } else {
          await trx('orders').where({ id: payment.order_id, payment_status: 'pending' }).update({ payment_status: 'failed', updated_at: Date.now() });
          note += 'payment failed';
        }
      }
      await repo.recordCallback(trx, { paymentId: payment.id, kind, body: raw, checksumOk: true, outcome: note });
      return { outcome: note, accepted: true };
    });
    if (paidOrder) {
      await options.onPaid(paidOrder).catch((err: unknown) => logger.error({ err, orderId: paidOrder }, 'order paid, but the follow-up failed'));
    }
    return outcome;
  }

  /** Row lock on MySQL; SQLite serialises writers on its single connection. */
  async function lockPayment(trx: Knex.Transaction, payRequestId: string): Promise<PaymentRow | undefined> {
    const query = trx('payments').where({ pay_request_id: payRequestId });
    if (trx.client.config.client === 'mysql2') query.forUpdate();
    return query.first();
  }

  async function notify(pairs: FormPairs): Promise<{ ok: boolean; outcome: string }> {
    const raw = encodeFormPairs(pairs);
    if (!verifyPostedChecksum(pairs, gateway.secret)) {
      await repo.recordCallback(knex, { paymentId: null, kind: 'notify', body: raw, checksumOk: false, outcome: 'bad checksum' });
      logger.warn({ payRequestId: pairValue(pairs, 'PAY_REQUEST_ID') }, 'payment notify with a bad checksum refused');
      return { ok: false, outcome: 'bad checksum' };
    }
    let result: PayGateResult;
    try {
      result = parsePayGateResult(pairs);
    } catch {
      await repo.recordCallback(knex, { paymentId: null, kind: 'notify', body: raw, checksumOk: true, outcome: 'unreadable fields' });
      return { ok: false, outcome: 'unreadable fields' };
    }
    const applied = await apply('notify', raw, result);
    if (!applied.accepted) logger.warn({ payRequestId: result.payRequestId, outcome: applied.outcome }, 'payment notify refused');
    return { ok: applied.accepted, outcome: applied.outcome };
  }

  /** Asks the gateway about an open payment (a lost notify still settles). Never throws. */
  async function reconcilePayment(payment: PaymentRow, force: boolean): Promise<void> {
    if (!payment.pay_request_id) return;
    if (!(await repo.claimQuery(payment.id, force ? 0 : options.queryIntervalMs))) return;
    try {
      const { fields, transaction } = await gateway.client.query({ payRequestId: payment.pay_request_id, reference: payment.reference });
      await apply('query', encodeFormPairs(fields), transaction);
    } catch (err) {
      logger.warn({ err, orderId: payment.order_id }, 'payment query failed');
    }
  }

  return {
    initiate,
    notify,

    /** Pending order read by the confirmation page: query when the last look is old enough. */
    async reconcileOrder(orderId: string, force = false): Promise<void> {
      const payment = await repo.latestOpenForOrder(orderId);
      if (!payment) return;
      if (!force && Date.now() - Number(payment.created_at) < options.queryIntervalMs) return;
      await reconcilePayment(payment, force);
    },

    /** The periodic sweep (checklist H8). */
    async sweep(olderThanMs: number): Promise<number> {
      const open = await repo.openOlderThan(olderThanMs);
      for (const payment of open) await reconcilePayment(payment, false);
      return open.length;
    },

    /**
     * The browser's return POST: untrusted for state, but its checksum is verified and the
     * gateway is queried at once, then the SPA gets the spec's query parameters.
     */
    async handleReturn(orderId: string, pairs: FormPairs): Promise<string> {
      const target = `${options.publicUrl}/order-confirmation/${encodeURIComponent(orderId)}`;
      const payRequestId = pairValue(pairs, 'PAY_REQUEST_ID') ?? '';
      const transactionStatus = pairValue(pairs, 'TRANSACTION_STATUS') ?? '';
      const payment = payRequestId ? await repo.byPayRequestId(payRequestId) : undefined;
      const valid =
        !!payment &&
        payment.order_id === orderId &&
        /^\d+$/.test(transactionStatus) &&
        checksumEquals(
          returnChecksum({ paygateId: payment.paygate_id, payRequestId, reference: payment.reference, transactionStatus }, gateway.secret),
          pairValue(pairs, 'CHECKSUM') ?? '',
        );
      await repo.recordCallback(knex, {
        paymentId: payment?.id ?? null,
        kind: 'return',
        body: encodeFormPairs(pairs),
        checksumOk: valid,
        outcome: valid ? 'browser returned' : 'bad return checksum',
      });
      if (!valid || !payment) return target;
      await reconcilePayment(payment, true);
      const settled = (await repo.byPayRequestId(payRequestId)) ?? payment;
      const params = new URLSearchParams({
        PAY_REQUEST_ID: payRequestId,
        TRANSACTION_STATUS: String(settled.transaction_status ?? transactionStatus),
        RESULT_CODE: settled.result_code ?? '',
      });
      return `${target}?${params.toString()}`;
    },
  };
}
export type PaymentsService = ReturnType<typeof createPaymentsService>;
