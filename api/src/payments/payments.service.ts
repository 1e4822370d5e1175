import type { Deps } from '../deps';
import { COUNTRY, CURRENCY } from '../../contract/constants';
import { HARDENING_MSG, KEEP_PAID_MSG, ORDER_MSG, PAYMENT_METHOD_MSG } from '../../contract/messages';
import { PAYMENT_METHOD_DEFINITIONS, type PaymentMethodId } from '../../contract/payment-methods';
import type { Logger } from '../logger';
import { createDatabase, type Tx } from '../db/database';
import { AppError, badRequest, conflict, notFound } from '../http/errors';
import { checksumEquals, encodeFormPairs, pairValue, returnChecksum, verifyPostedChecksum, type FormPairs } from './paygate/checksum';
import type { InitiateResult, PayGateClient } from './paygate/client';
import { transactionOutcome } from './paygate/codes';
import { PayGateError } from './paygate/errors';
import { parsePayGateResult, type PayGateResult } from './paygate/result';
import { createPaymentsRepository, type PaymentRecord } from './payments.repository';
import { createOrdersRepository, type OrderItemRecord } from '../orders/orders.repository';
import { lineWithdrawn } from '../orders/orders.presenter';
import { familyPhotoLabel } from '../../contract/photo-names';
import { WITHDRAWN_MSG, type WithdrawnOrderLine } from '../../contract/withdrawn-photos';
import type { Metrics, PaymentOutcome } from '../metrics/metrics';

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
  /**
   * Called once, inside the transaction of whichever answer moved the order to paid: writes the
   * confirmation e-mail to the outbox there (docs/email.md, "The outbox").
   */
  onPaid(orderId: string, tx: Tx): Promise<void>;
  /** Called once, inside the same transaction: withdraws the reminders a paid family must not get (docs/outreach.md, "Stopping once the family pays"). */
  onPaidInTx?(orderId: string, tx: Tx): Promise<unknown>;
  /** The methods the checkout offers (config.paymentMethods), the first being the default. */
  paymentMethods: readonly PaymentMethodId[];
  /** A received bank transfer not confirmed within this many days expires (docs/payments.md, "Payments that settle later"). */
  bankTransferExpiryDays: number;
  /** Called once, inside the transaction that expired an unpaid order's latest payment (`paymentId`): the parent's one e-mail (and SMS). */
  onExpired(orderId: string, tx: Tx, paymentId: number): Promise<void>;
  /**
   * Called once per payment, inside the transaction that recorded a bank transfer as received and
   * awaiting the bank (a method that expires): the parent's one SMS (docs/sms.md, "Transactional SMS").
   */
  onTransferAwaiting?(orderId: string, paymentId: number, tx: Tx): Promise<void>;
  /**
   * Called inside the transaction that failed, cancelled or expired one of an order's payments: the
   * order's coupon use goes back at once unless another of its payments is still open
   * (docs/packages-and-coupons.md, "Holds that lapse").
   */
  onPaymentEnded?(orderId: string, tx: Tx): Promise<void>;
  /**
   * Before a payment is opened for an order, or an order of total zero is paid: an order whose
   * coupon use lapsed takes one again, or the call throws its 409 (docs/packages-and-coupons.md,
   * "Paying after a hold lapsed"). `order` is what the initiation read under its claim.
   */
  beforePayment?(orderId: string, order: { placedWithCoupon: boolean }): Promise<void>;
  /** Called after a commit in which `onPaid` or `onExpired` wrote e-mails (the outbox's kick). */
  mailQueued(): void;
  /** Counts each payment event once, after its commit (docs/operations.md, "Metrics"). */
  metrics?: Pick<Metrics, 'payment'>;
}

type Transition = 'completed' | 'failed' | 'received' | 'pending';

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * How often the sweep asks about a received payment of a method that settles later
 * (docs/payments.md, "The sweep"): every 15 minutes for its first 6 hours, hourly until 2 days,
 * then every 6 hours until it expires. A week of a bank transfer costs about 50 queries, not 10,000.
 */
export const RECEIVED_QUERY_SCHEDULE = [
  { youngerThanMs: 6 * HOUR_MS, everyMs: 15 * 60_000 },
  { youngerThanMs: 2 * DAY_MS, everyMs: HOUR_MS },
  { youngerThanMs: Number.MAX_SAFE_INTEGER, everyMs: 6 * HOUR_MS },
] as const;
/** A parent reading the page of a received payment has it queried at most this often. */
const RECEIVED_READ_QUERY_MS = 60_000;
/** The sweep asks about this many received payments per run, after the card payments. */
const SWEEP_RECEIVED_PER_RUN = 100;
/** The expiry job expires this many payments per run at most. */
const EXPIRE_PER_RUN = 200;

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
    case 'received':
      return 'received';
    default:
      return 'pending';
  }
}

/**
 * What the initiate endpoint answers: the gateway's request; an order of total zero paid at once
 * without the gateway (docs/packages-and-coupons.md, "A total of zero"); or that payment is
 * unavailable now.
 */
export type InitiationOutcome = { ok: true; request: InitiateResult } | { ok: true; free: { orderId: string } } | { ok: false };

/** The gateway name of the payment that records an order of total zero: no money moved, and it is not a test. */
export const FREE_GATEWAY = 'free';

/**
 * The money path. Gateway answers are verified, matched to a payment only
 * through checksummed fields, checked for PAYGATE_ID, AMOUNT and CURRENCY, and applied forward
 * only inside one transaction with conditional updates, so duplicates and races change nothing
 * twice. Accepted callbacks are stored (bounded); refused ones leave only their size and hash.
 */
export function createPaymentsService(options: PaymentsOptions) {
  const { logger, gateway } = options;
  const enabledMethods = options.paymentMethods;
  /** Card-only merchants keep today's initiate without PAY_METHOD (docs/payments.md, "Payment methods"). */
  const sendPayMethod = !(enabledMethods.length === 1 && enabledMethods[0] === 'card');

  /** The method a payment is for: its own, or card for one begun before methods existed. */
  const methodOf = (payment: Pick<PaymentRecord, 'method'>): PaymentMethodId => payment.method ?? 'card';

  /** The method asked for, the first enabled one when none was; a method not enabled is 400. */
  function chooseMethod(asked: PaymentMethodId | undefined): PaymentMethodId {
    const method = asked ?? enabledMethods[0] ?? 'card';
    if (!enabledMethods.includes(method)) throw badRequest(PAYMENT_METHOD_MSG.methodNotEnabled, undefined, 'PAYMENT_METHOD_NOT_ENABLED');
    return method;
  }
  const repo = createPaymentsRepository(options.knex);
  const count = (outcome: PaymentOutcome) => options.metrics?.payment(outcome);
  const database = createDatabase(options.knex);
  const orderLines = createOrdersRepository(options.knex);

  /** The order's lines whose photo the family no longer sees (docs/access.md, "Withdrawn photos"), as the family knows them. */
  async function withdrawnLines(orderId: string, tx?: Tx): Promise<WithdrawnOrderLine[]> {
    return withdrawnOf(await orderLines.linesNow(orderId, tx));
  }

  function withdrawnOf(lines: readonly OrderItemRecord[]): WithdrawnOrderLine[] {
    const describe = (item: OrderItemRecord): WithdrawnOrderLine => ({
      itemId: item.id,
      photoName: familyPhotoLabel({ id: item.photoId, originalName: item.photoOriginalName, name: item.photoName, originalNumber: item.photoOriginalNumber }),
      productName: item.productName,
    });
    return lines.filter(lineWithdrawn).map(describe);
  }

  /** The order and its lines as they are now, read together in one query (docs/performance.md, "Checkout tails on a warm server"). */
  async function payableOrder(orderId: string) {
    const found = await orderLines.payable(orderId);
    if (!found) throw notFound(ORDER_MSG.orderNotFound);
    const { order } = found;
    if (order.paymentStatus === 'completed') throw conflict(ORDER_MSG.alreadyPaid, 'ALREADY_PAID');
    if (order.orderStatus === 'cancelled') throw conflict(ORDER_MSG.orderCancelled, 'ORDER_CANCELLED');
    // Never paid for lines whose photo was deleted or erased (docs/access.md, "Photos that orders need").
    if (order.linesWithoutPhoto > 0) throw conflict(KEEP_PAID_MSG.orderPhotosGone, 'ORDER_PHOTOS_GONE');
    // Never charged for a photo the family no longer sees: moved, withheld, do not publish, its
    // class back to draft (docs/payments.md, "Withdrawn photos are never charged").
    const withdrawn = withdrawnOf(found.lines);
    if (withdrawn.length > 0) {
      const names = withdrawn.map((line) => WITHDRAWN_MSG.lineName(line.photoName, line.productName));
      throw new AppError(409, WITHDRAWN_MSG.orderPhotosWithdrawn(names), 'ORDER_PHOTOS_WITHDRAWN', undefined, undefined, { lines: withdrawn });
    }
    return order;
  }

  /**
   * The order's open payment request, when the parent can still pay it: the gateway is asked first
   * (it may have been paid or cancelled without our hearing), so a paid order is refused and a
   * dead request is replaced. A failed query leaves the request in use: paying it twice is impossible.
   */
  async function reusableRequest(orderId: string, method: PaymentMethodId): Promise<InitiateResult | null> {
    const open = await repo.latestOpenForOrder(orderId);
    if (!open?.payRequestId) return null;
    await reconcilePayment(open, true);
    // The parent may have switched method: the newest open request of this method is the one to reuse.
    const same = methodOf(open) === method ? open : await repo.latestOpenForOrder(orderId, method);
    if (same && same.id !== open.id) await reconcilePayment(same, true);
    await payableOrder(orderId);
    const current = same?.payRequestId ? await repo.byPayRequestId(same.payRequestId) : undefined;
    // Only an initiated request is handed back: a received one (status 5) has no payment page left
    // (docs/payments.md, "Switching method").
    if (!current?.payRequestId || current.status !== 'initiated') return null;
    if (Date.now() - current.createdAt > PAYMENT_REUSE_MS) return null;
    return gateway.client.resume({ payRequestId: current.payRequestId, reference: current.reference });
  }

  /**
   * One payment request per order at a time, so a double click, a second tab or the back button
   * never opens two requests the parent could both pay: an open one is reused, and requests racing
   * to open the first one wait for the winner's. The claim comes first, so the usual case (the
   * order's first payment) reads the order and looks for an open request once, in one query,
   * under the claim.
   */
  async function initiate(orderId: string, askedMethod?: PaymentMethodId): Promise<InitiateResult | { free: { orderId: string } }> {
    const method = chooseMethod(askedMethod);
    const deadline = Date.now() + INITIATION_WAIT_MS;
    while (!(await repo.claimInitiation(orderId, INITIATION_CLAIM_MS))) {
      // No such order (nothing to claim), or one that cannot be paid, is refused at once.
      await payableOrder(orderId);
      // Another request holds the claim: the request it opens is reused once it is there.
      const reusable = await reusableRequest(orderId, method);
      if (reusable) return reusable;
      if (Date.now() > deadline) throw conflict(HARDENING_MSG.paymentInProgress, 'PAYMENT_IN_PROGRESS');
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    let released = false;
    try {
      const order = await payableOrder(orderId);
      await options.beforePayment?.(orderId, order);
      if (order.totalThebe === 0) return { free: await payFree(orderId) };
      // An earlier request of this order (another tab, the back button, the claim's previous holder).
      const opened = order.hasOpenRequest ? await reusableRequest(orderId, method) : null;
      if (opened) return opened;
      const amountThebe = order.totalThebe;
      const definition = PAYMENT_METHOD_DEFINITIONS[method];
      const result = await gateway.client.initiate({
        reference: orderId,
        amountThebe,
        currency: CURRENCY,
        country: COUNTRY,
        email: order.customerEmail,
        returnUrl: `${options.publicUrl}/api/payment/return?orderId=${encodeURIComponent(orderId)}`,
        notifyUrl: `${options.publicUrl}/api/payment/notify`,
        ...(sendPayMethod && { payMethod: definition.payMethod, ...(definition.payMethodDetail && { payMethodDetail: definition.payMethodDetail }) }),
      });
      await repo.insert({
        orderId,
        gateway: gateway.kind,
        paygateId: gateway.paygateId,
        payRequestId: result.payRequestId,
        reference: orderId,
        amountThebe,
        currency: CURRENCY,
        method,
      });
      await repo.recordRequestAndRelease(orderId, result.payRequestId);
      released = true;
      count('initiated');
      return result;
    } finally {
      if (!released) await repo.releaseInitiation(orderId);
    }
  }

  /**
   * An order whose discounts bring it to zero (docs/packages-and-coupons.md, "A total of zero"): a
   * completed payment of gateway `free` and amount 0 is recorded and the order paid through the
   * same paid path as a gateway's approval (confirmation e-mail, coupon use, reminders withdrawn),
   * in one transaction. Called under the order's initiation claim.
   */
  async function payFree(orderId: string): Promise<{ orderId: string }> {
    const paid = await database.transaction(async (tx) => {
      if (!(await repo.completeOrderPayment(orderId, tx))) return false;
      await repo.insertFree(orderId, gateway.paygateId, FREE_GATEWAY, CURRENCY, tx);
      await options.onPaid(orderId, tx);
      await options.onPaidInTx?.(orderId, tx);
      return true;
    });
    if (!paid) {
      // Paid or cancelled a moment ago by another request: the order says which.
      await payableOrder(orderId);
      throw conflict(HARDENING_MSG.paymentInProgress, 'PAYMENT_IN_PROGRESS');
    }
    logger.info({ orderId }, 'order of total zero paid without the gateway');
    count('free');
    options.mailQueued();
    return { orderId };
  }

  /** Applies a verified gateway result. Returns a short outcome for the callback log. */
  async function apply(kind: 'notify' | 'query', raw: string, result: PayGateResult): Promise<{ outcome: string; accepted: boolean }> {
    let paidOrder: string | null = null;
    /** An awaiting-transfer SMS was written: the sender is kicked after the commit. */
    let awaitingQueued = false;
    const refunds: { orderId: string; payRequestId: string; transactionId: string | null; why: 'cancelled' | 'duplicate' }[] = [];
    const expiredPaid: { orderId: string; payRequestId: string; transactionId: string | null }[] = [];
    const paidWithdrawn: { orderId: string; payRequestId: string; transactionId: string | null; lines: number[] }[] = [];
    /** What this answer changed, counted once it has committed. */
    let event: PaymentOutcome | null = null;
    const outcome = await database.transaction(async (tx) => {
      event = null;
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
      } else if (next === 'received') {
        // Received by the gateway, settled later by a final notify (docs/payments.md, "Payments that settle later").
        const expires = PAYMENT_METHOD_DEFINITIONS[methodOf(payment)].expires;
        const moved = await repo.markReceived(
          payment.id,
          {
            transactionStatus: result.transactionStatus,
            resultCode: result.resultCode,
            resultDesc: result.resultDesc,
            payMethod: result.payMethod,
            payMethodDetail: result.payMethodDetail,
            expiresAfterMs: expires ? options.bankTransferExpiryDays * DAY_MS : null,
          },
          tx,
        );
        if (moved === 1) {
          event = 'received';
          // The order's phone is told what to pay, by when, with the transfer's deadline (docs/sms.md, "Transactional SMS").
          if (expires && options.onTransferAwaiting) {
            await options.onTransferAwaiting(payment.orderId, payment.id, tx);
            awaitingQueued = true;
          }
        }
        note += moved === 1 ? 'received, awaiting the final result' : payment.status === 'pending' ? 'repeat of received' : `ignored: payment already ${payment.status}`;
      } else {
        const settlement = {
          status: next,
          transactionStatus: result.transactionStatus,
          resultCode: result.resultCode,
          resultDesc: result.resultDesc,
          transactionId: result.transactionId,
          payMethod: result.payMethod,
          payMethodDetail: result.payMethodDetail,
        };
        let moved = await repo.settle(payment.id, settlement, tx);
        // The one exception to forward only: money that arrives after its payment expired is
        // recorded, never lost, and the order flagged (docs/payments.md, "Paid after expiry").
        const afterExpiry = moved === 0 && next === 'completed' && payment.status === 'failed' && payment.expiredAt !== null;
        if (afterExpiry) {
          moved = await repo.reviveExpired(payment.id, settlement, tx);
          if (moved === 1) {
            await repo.countPaidAfterExpiry(payment.orderId, tx);
            expiredPaid.push({ orderId: payment.orderId, payRequestId: result.payRequestId, transactionId: result.transactionId });
            note += 'paid after expiry, ';
          }
        }
        if (moved === 0) {
          // Already final: a repeat is fine; a contradiction (declined after paid) is kept for review.
          note += payment.status === next ? `repeat of ${next}` : `ignored: payment already ${payment.status}`;
        } else if (next === 'completed') {
          if (await repo.completeOrderPayment(payment.orderId, tx)) {
            paidOrder = payment.orderId;
            // Approved although lines were withdrawn meanwhile (the request was opened before): the
            // order is paid, those lines are flagged for a refund like a paid-after-cancel, and the
            // confirmation says they will not be delivered (docs/payments.md, "Withdrawn photos are never charged").
            const withdrawn = await withdrawnLines(payment.orderId, tx);
            if (withdrawn.length > 0) {
              await repo.countPaidWithWithdrawn(payment.orderId, withdrawn.length, tx);
              paidWithdrawn.push({ orderId: payment.orderId, payRequestId: result.payRequestId, transactionId: result.transactionId, lines: withdrawn.map((line) => line.itemId) });
              note += `${withdrawn.length} withdrawn, refund; `;
            }
            // The confirmation is written with the payment that paid the order, or not at all.
            await options.onPaid(payment.orderId, tx);
            // docs/outreach.md, "Stopping once the family pays": nothing queued reaches a family that paid.
            await options.onPaidInTx?.(payment.orderId, tx);
            note += 'order paid';
            event = 'completed';
          } else {
            // Another of this order's payments already paid it (the parent was charged twice), or
            // the order was cancelled before this payment came (docs/payments.md, "Paid after
            // cancellation"). The order is flagged for staff to refund it; no confirmation goes out.
            const why = await repo.countUnneededPayment(payment.orderId, tx);
            refunds.push({ orderId: payment.orderId, payRequestId: result.payRequestId, transactionId: result.transactionId, why });
            event = 'refund_needed';
            note += why === 'cancelled' ? 'paid after cancel, refund' : 'paid twice, refund one';
          }
        } else {
          await repo.failOrderPayment(payment.orderId, tx);
          await options.onPaymentEnded?.(payment.orderId, tx);
          note += 'payment failed';
          event = 'failed';
        }
      }
      await repo.recordCallback(tx, { paymentId: payment.id, kind, body: raw, checksumOk: true, outcome: note });
      return { outcome: note, accepted: true };
    });
    if (!outcome.accepted) count('callback_refused');
    else if (event) count(event);
    for (const extra of expiredPaid) logger.warn(extra, 'payment approved after it had expired: check the order');
    for (const extra of paidWithdrawn) logger.warn(extra, 'order paid with withdrawn photos: refund those lines');
    for (const { why, ...extra } of refunds) {
      logger.warn(extra, why === 'cancelled' ? 'cancelled order paid: refund the payment' : 'order paid twice: refund the extra payment');
    }
    if (paidOrder || awaitingQueued) options.mailQueued();
    return outcome;
  }

  async function notify(pairs: FormPairs): Promise<{ ok: boolean; outcome: string }> {
    const raw = encodeFormPairs(pairs);
    if (!verifyPostedChecksum(pairs, gateway.secret)) {
      await repo.recordRejected({ kind: 'notify', body: raw, reason: 'bad checksum' });
      count('callback_refused');
      logger.warn({ payRequestId: pairValue(pairs, 'PAY_REQUEST_ID') }, 'payment notify with a bad checksum refused');
      return { ok: false, outcome: 'bad checksum' };
    }
    let result: PayGateResult;
    try {
      result = parsePayGateResult(pairs);
    } catch {
      await repo.recordCallback(null, { paymentId: null, kind: 'notify', body: raw, checksumOk: true, outcome: 'unreadable fields' });
      count('callback_refused');
      return { ok: false, outcome: 'unreadable fields' };
    }
    const applied = await apply('notify', raw, result);
    if (!applied.accepted) logger.warn({ payRequestId: result.payRequestId, outcome: applied.outcome }, 'payment notify refused');
    return { ok: applied.accepted, outcome: applied.outcome };
  }

  /** Asks the gateway about an open payment (a lost notify still settles). Never throws. */
  async function reconcilePayment(payment: PaymentRecord, force: boolean, intervalMs = options.queryIntervalMs): Promise<void> {
    if (!payment.payRequestId) return;
    if (!(await repo.claimQuery(payment.id, force ? 0 : intervalMs))) return;
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
    async start(orderId: string, method?: PaymentMethodId): Promise<InitiationOutcome> {
      try {
        const started = await initiate(orderId, method);
        return 'free' in started ? { ok: true, free: started.free } : { ok: true, request: started };
      } catch (err) {
        if (err instanceof AppError) throw err;
        logger.error({ err, orderId, code: err instanceof PayGateError ? err.code : undefined }, 'payment initiation failed');
        count('initiation_failed');
        return { ok: false };
      }
    },

    notify,

    /** Pending order read by the confirmation page: query when the last look is old enough. */
    async reconcileOrder(orderId: string, force = false): Promise<void> {
      const payment = await repo.latestOpenForOrder(orderId);
      if (!payment) return;
      if (!force && Date.now() - payment.createdAt < options.queryIntervalMs) return;
      // A received payment settles by its final notify, hours or days later: a parent watching the
      // page has it asked about at most once a minute (docs/payments.md, "The sweep").
      const interval = payment.status === 'pending' ? Math.max(options.queryIntervalMs, RECEIVED_READ_QUERY_MS) : options.queryIntervalMs;
      await reconcilePayment(payment, force, interval);
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
      // Received payments of slow methods, gently and with their own budget (docs/payments.md, "The sweep").
      const window = options.bankTransferExpiryDays * DAY_MS + DAY_MS;
      const received = await repo.receivedDue(RECEIVED_QUERY_SCHEDULE, window, SWEEP_RECEIVED_PER_RUN);
      for (const payment of received) await reconcilePayment(payment, true);
      return swept + received.length;
    },

    /**
     * Received bank transfers past their deadline expire to failed (docs/payments.md, "Payments
     * that settle later"): the gateway is asked a last time, then the payment expires by one
     * conditional update, so only one process, once. The order's payment fails and its parent gets
     * one e-mail, only when the order is unpaid, not cancelled, and this is its latest payment
     * (a parent paying another way since is not told to pay again). Returns how many expired.
     */
    async expireDue(): Promise<number> {
      let expired = 0;
      for (const due of await repo.expiredDue(EXPIRE_PER_RUN)) {
        await reconcilePayment(due, true);
        let toldParent = false;
        const moved = await database.transaction(async (tx) => {
          if ((await repo.expire(due.id, tx)) === 0) return false;
          await options.onPaymentEnded?.(due.orderId, tx);
          if (await repo.isLatestForOrder(due.orderId, due.id, tx)) {
            await repo.failOrderPayment(due.orderId, tx);
            if ((await repo.unpaidOpenOrder(due.orderId, tx)) !== undefined) {
              // The parent's one e-mail is written with the expiry, or not at all.
              await options.onExpired(due.orderId, tx, due.id);
              toldParent = true;
            }
          }
          return true;
        });
        if (!moved) continue;
        expired += 1;
        count('expired');
        logger.info({ orderId: due.orderId, payRequestId: due.payRequestId }, 'bank transfer expired unconfirmed');
        if (toldParent) options.mailQueued();
      }
      return expired;
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
        count('callback_refused');
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
