import type { Deps } from '../deps';
import { COUNTRY, CURRENCY } from '../../contract/constants';
import { HARDENING_MSG, KEEP_PAID_MSG, ORDER_MSG } from '../../contract/messages';
import type { Logger } from '../logger';
import { createDatabase } from '../db/database';
import { AppError, conflict, notFound } from '../http/errors';
import { checksumEquals, encodeFormPairs, pairValue, returnChecksum, verifyPostedChecksum, type FormPairs } from './paygate/checksum';
import type { InitiateResult, PayGateClient } from './paygate/client';
import { transactionOutcome } from './paygate/codes';
import { PayGateError } from './paygate/errors';
import { parsePayGateResult, type PayGateResult } from './paygate/result';
import { createPaidPhotoRepository } from '../orders/paid-photos.repository';
import { createPaymentsRepository, OPEN_PAYMENT_STATES, type PaymentRecord } from './payments.repository';

export interface Gateway {
  kind: 'sandbox' | 'paygate';
  paygateId: string;
  secret: string;
  client: PayGateClient;
}

export interface PaymentsOptions {
  knex: Deps['knex'];
  logger: Logger;
  publicUrl: string;
  gateway: Gateway;
  /** A pending order read this long after the last query is queried again ("every few seconds", docs/payments.md). */
  queryIntervalMs: number;
  /** Called once, after commit, by whichever answer moved the order to paid. */
  onPaid(orderId: string): Promise<void>;
}

type Transition = 'completed' | 'failed' | 'pending';

/**
 * PayGate refuses to show the payment page for a request older than 30 minutes; an open request
 * younger than this is handed out again instead of opening a second one that could also be paid.
 */
export const PAYMENT_REUSE_MS = 25 * 60_000;
/** How long one request may hold the right to open a payment for an order (the gateway answers within 10 s). */
const INITIATION_CLAIM_MS = 20_000;
/** How long a second request waits for the first one's payment before giving up with 409. */
const INITIATION_WAIT_MS = 15_000;

/** The sweep asks the gateway about this many payments at a time, and at most SWEEP_MAX_PER_RUN in one run. */
const SWEEP_BATCH = 50;
const SWEEP_MAX_PER_RUN = 500;

/** TRANSACTION_STATUS to our payment state: approved pays; declined, cancelled and voided are final refusals; the rest is not final. */
function transitionFor(status: number): Transition {
  switch (transactionOutcome(status)) {
    case 'approved':
      return 'completed';
    case 'declined':
    case 'cancelled':
    case 'voided':
      return 'failed';
    default:
      return 'pending';
  }
}

/** What the initiate endpoint answers: the gateway's request, or that payment is unavailable now. */
export type InitiationOutcome = { ok: true; request: InitiateResult } | { ok: false };

/**
 * The money path. Gateway answers are verified, matched to a payment only
 * through checksummed fields, checked for PAYGATE_ID, AMOUNT and CURRENCY, and applied forward
 * only inside one transaction with conditional updates, so duplicates and races change nothing
 * twice. Accepted callbacks are stored (bounded); refused ones leave only their size and hash.
 */
export function createPaymentsService(options: PaymentsOptions) {
  const { logger, gateway } = options;
  const repo = createPaymentsRepository(options.knex);
  const database = createDatabase(options.knex);
  const paidPhotos = createPaidPhotoRepository(options.knex);

  async function payableOrder(orderId: string) {
    const order = await repo.payableOrder(orderId);
    if (!order) throw notFound(ORDER_MSG.orderNotFound);
    if (order.paymentStatus === 'completed') throw conflict(ORDER_MSG.alreadyPaid, 'ALREADY_PAID');
    if (order.orderStatus === 'cancelled') throw conflict(ORDER_MSG.orderCancelled, 'ORDER_CANCELLED');
    // Never paid for lines whose photo was deleted or erased (docs/access.md, "Photos that orders need").
    if ((await paidPhotos.linesWithoutPhoto(orderId)) > 0) throw conflict(KEEP_PAID_MSG.orderPhotosGone, 'ORDER_PHOTOS_GONE');
    return order;
  }

  /**
   * The order's open payment request, when the parent can still pay it: the gateway is asked first
   * (it may have been paid or cancelled without our hearing), so a paid order is refused and a
   * dead request is replaced. A failed query leaves the request in use: paying it twice is impossible.
   */
  async function reusableRequest(orderId: string): Promise<InitiateResult | null> {
    const open = await repo.latestOpenForOrder(orderId);
    if (!open?.payRequestId) return null;
    await reconcilePayment(open, true);
    await payableOrder(orderId);
    const current = await repo.byPayRequestId(open.payRequestId);
    if (!current || !(OPEN_PAYMENT_STATES as readonly string[]).includes(current.status)) return null;
    if (Date.now() - current.createdAt > PAYMENT_REUSE_MS) return null;
    return gateway.client.resume({ payRequestId: open.payRequestId, reference: current.reference });
  }

  /**
   * One payment request per order at a time, so a double click, a second tab or the back button
   * never opens two requests the parent could both pay: an open one is reused, and requests racing
   * to open the first one wait for the winner's. The claim comes first, so the usual case (the
   * order's first payment) reads the order and looks for an open request once, in one query,
   * under the claim.
   */
  async function initiate(orderId: string): Promise<InitiateResult> {
    const deadline = Date.now() + INITIATION_WAIT_MS;
    while (!(await repo.claimInitiation(orderId, INITIATION_CLAIM_MS))) {
      // No such order (nothing to claim), or one that cannot be paid, is refused at once.
      await payableOrder(orderId);
      // Another request holds the claim: the request it opens is reused once it is there.
      const reusable = await reusableRequest(orderId);
      if (reusable) return reusable;
      if (Date.now() > deadline) throw conflict(HARDENING_MSG.paymentInProgress, 'PAYMENT_IN_PROGRESS');
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    let released = false;
    try {
      const order = await payableOrder(orderId);
      // An earlier request of this order (another tab, the back button, the claim's previous holder).
      const opened = order.hasOpenRequest ? await reusableRequest(orderId) : null;
      if (opened) return opened;
      const amountThebe = order.totalThebe;
      const result = await gateway.client.initiate({
        reference: orderId,
        amountThebe,
        currency: CURRENCY,
        country: COUNTRY,
        email: order.customerEmail,
        returnUrl: `${options.publicUrl}/api/payment/return?orderId=${encodeURIComponent(orderId)}`,
        notifyUrl: `${options.publicUrl}/api/payment/notify`,
      });
      await repo.insert({
        orderId,
        gateway: gateway.kind,
        paygateId: gateway.paygateId,
        payRequestId: result.payRequestId,
        reference: orderId,
        amountThebe,
        currency: CURRENCY,
      });
      await repo.recordRequestAndRelease(orderId, result.payRequestId);
      released = true;
      return result;
    } finally {
      if (!released) await repo.releaseInitiation(orderId);
    }
  }

  /** Applies a verified gateway result. Returns a short outcome for the callback log. */
  async function apply(kind: 'notify' | 'query', raw: string, result: PayGateResult): Promise<{ outcome: string; accepted: boolean }> {
    let paidOrder: string | null = null;
    const refunds: { orderId: string; payRequestId: string; transactionId: string | null; why: 'cancelled' | 'duplicate' }[] = [];
    const outcome = await database.transaction(async (tx) => {
      const payment = await repo.lockByPayRequestId(result.payRequestId, tx);
      const reject = async (why: string) => {
        await repo.recordCallback(tx, { paymentId: payment?.id ?? null, kind, body: raw, checksumOk: true, outcome: why });
        return { outcome: why, accepted: false };
      };
      if (!payment) return reject('unknown PAY_REQUEST_ID');
      if (result.reference !== payment.reference) return reject('REFERENCE mismatch');
      if (result.paygateId !== payment.paygateId) return reject('PAYGATE_ID mismatch');
      if (result.amount !== payment.amountThebe) return reject('AMOUNT mismatch');
      if (result.currency !== payment.currency) return reject('CURRENCY mismatch');

      const next = transitionFor(result.transactionStatus);
      let note = `status ${result.transactionStatus}: `;
      if (next === 'pending') {
        note += 'not final';
      } else {
        const moved = await repo.settle(
          payment.id,
          { status: next, transactionStatus: result.transactionStatus, resultCode: result.resultCode, resultDesc: result.resultDesc, transactionId: result.transactionId },
          tx,
        );
        if (moved === 0) {
          // Already final: a repeat is fine; a contradiction (declined after paid) is kept for review.
          note += payment.status === next ? `repeat of ${next}` : `ignored: payment already ${payment.status}`;
        } else if (next === 'completed') {
          if (await repo.completeOrderPayment(payment.orderId, tx)) {
            paidOrder = payment.orderId;
            note += 'order paid';
          } else {
            // Another of this order's payments already paid it (the parent was charged twice), or
            // the order was cancelled before this payment came (docs/payments.md, "Paid after
            // cancellation"). The order is flagged for staff to refund it; no confirmation goes out.
            const why = await repo.countUnneededPayment(payment.orderId, tx);
            refunds.push({ orderId: payment.orderId, payRequestId: result.payRequestId, transactionId: result.transactionId, why });
            note += why === 'cancelled' ? 'paid after cancel, refund' : 'paid twice, refund one';
          }
        } else {
          await repo.failOrderPayment(payment.orderId, tx);
          note += 'payment failed';
        }
      }
      await repo.recordCallback(tx, { paymentId: payment.id, kind, body: raw, checksumOk: true, outcome: note });
      return { outcome: note, accepted: true };
    });
    for (const { why, ...extra } of refunds) {
      logger.warn(extra, why === 'cancelled' ? 'cancelled order paid: refund the payment' : 'order paid twice: refund the extra payment');
    }
    if (paidOrder) {
      await options.onPaid(paidOrder).catch((err: unknown) => logger.error({ err, orderId: paidOrder }, 'order paid, but the follow-up failed'));
    }
    return outcome;
  }

  async function notify(pairs: FormPairs): Promise<{ ok: boolean; outcome: string }> {
    const raw = encodeFormPairs(pairs);
    if (!verifyPostedChecksum(pairs, gateway.secret)) {
      await repo.recordRejected({ kind: 'notify', body: raw, reason: 'bad checksum' });
      logger.warn({ payRequestId: pairValue(pairs, 'PAY_REQUEST_ID') }, 'payment notify with a bad checksum refused');
      return { ok: false, outcome: 'bad checksum' };
    }
    let result: PayGateResult;
    try {
      result = parsePayGateResult(pairs);
    } catch {
      await repo.recordCallback(null, { paymentId: null, kind: 'notify', body: raw, checksumOk: true, outcome: 'unreadable fields' });
      return { ok: false, outcome: 'unreadable fields' };
    }
    const applied = await apply('notify', raw, result);
    if (!applied.accepted) logger.warn({ payRequestId: result.payRequestId, outcome: applied.outcome }, 'payment notify refused');
    return { ok: applied.accepted, outcome: applied.outcome };
  }

  /** Asks the gateway about an open payment (a lost notify still settles). Never throws. */
  async function reconcilePayment(payment: PaymentRecord, force: boolean): Promise<void> {
    if (!payment.payRequestId) return;
    if (!(await repo.claimQuery(payment.id, force ? 0 : options.queryIntervalMs))) return;
    try {
      const { fields, transaction } = await gateway.client.query({ payRequestId: payment.payRequestId, reference: payment.reference });
      await apply('query', encodeFormPairs(fields), transaction);
    } catch (err) {
      logger.warn({ err, orderId: payment.orderId }, 'payment query failed');
    }
  }

  return {
    initiate,

    /**
     * The initiate endpoint's answer. A rule broken (unknown order, already paid, another payment
     * in progress) is thrown as usual; the gateway failing is logged and answered as unavailable.
     */
    async start(orderId: string): Promise<InitiationOutcome> {
      try {
        return { ok: true, request: await initiate(orderId) };
      } catch (err) {
        if (err instanceof AppError) throw err;
        logger.error({ err, orderId, code: err instanceof PayGateError ? err.code : undefined }, 'payment initiation failed');
        return { ok: false };
      }
    },

    notify,

    /** Pending order read by the confirmation page: query when the last look is old enough. */
    async reconcileOrder(orderId: string, force = false): Promise<void> {
      const payment = await repo.latestOpenForOrder(orderId);
      if (!payment) return;
      if (!force && Date.now() - payment.createdAt < options.queryIntervalMs) return;
      await reconcilePayment(payment, force);
    },

    /**
     * The periodic sweep (docs/payments.md, "The sweep"): every open payment that is due, in
     * batches, the longest unasked first. Each query marks its payment asked, so a batch never
     * comes back in the same run; a run stops after SWEEP_MAX_PER_RUN queries and the next run
     * carries on with the payments asked least recently.
     */
    async sweep(olderThanMs: number): Promise<number> {
      let swept = 0;
      while (swept < SWEEP_MAX_PER_RUN) {
        const due = await repo.openDue(olderThanMs, options.queryIntervalMs, Math.min(SWEEP_BATCH, SWEEP_MAX_PER_RUN - swept));
        for (const payment of due) await reconcilePayment(payment, false);
        swept += due.length;
        if (due.length < SWEEP_BATCH) break;
      }
      return swept;
    },

    /**
     * The browser's return POST: untrusted for state, but its checksum is verified and the
     * gateway is queried at once, then the PWA's confirmation page gets the gateway's query parameters.
     */
    async handleReturn(orderId: string, pairs: FormPairs): Promise<string> {
      const target = `${options.publicUrl}/order-confirmation/${encodeURIComponent(orderId)}`;
      const payRequestId = pairValue(pairs, 'PAY_REQUEST_ID') ?? '';
      const transactionStatus = pairValue(pairs, 'TRANSACTION_STATUS') ?? '';
      const payment = payRequestId ? await repo.byPayRequestId(payRequestId) : undefined;
      const valid =
        !!payment &&
        payment.orderId === orderId &&
        /^\d+$/.test(transactionStatus) &&
        checksumEquals(
          returnChecksum({ paygateId: payment.paygateId, payRequestId, reference: payment.reference, transactionStatus }, gateway.secret),
          pairValue(pairs, 'CHECKSUM') ?? '',
        );
      if (!valid || !payment) {
        await repo.recordRejected({ kind: 'return', body: encodeFormPairs(pairs), reason: payment ? 'bad return checksum' : 'unknown PAY_REQUEST_ID' });
        return target;
      }
      await repo.recordCallback(null, { paymentId: payment.id, kind: 'return', body: encodeFormPairs(pairs), checksumOk: true, outcome: 'browser returned' });
      await reconcilePayment(payment, true);
      const settled = (await repo.byPayRequestId(payRequestId)) ?? payment;
      const params = new URLSearchParams({
        PAY_REQUEST_ID: payRequestId,
        TRANSACTION_STATUS: String(settled.transactionStatus ?? transactionStatus),
        RESULT_CODE: settled.resultCode ?? '',
      });
      return `${target}?${params.toString()}`;
    },
  };
}
export type PaymentsService = ReturnType<typeof createPaymentsService>;
