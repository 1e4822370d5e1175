import type { Deps } from '../deps';
import type { Tx } from '../db/database';
import { createCustomerService, type CustomerService } from '../customers/customers.service';
import { createOutbox, type Outbox } from '../outbox/outbox.service';
import { createDownloadLinks } from './downloads';
import { createOrdersService } from './orders.service';
import { createPaymentsService, type PaymentsService } from '../payments/payments.service';
import { createCouponService } from '../coupons/coupons.service';
import type { CouponsForOrders } from '../coupons/coupons.types';
import { createSalesRecording } from '../reports/reports-recording';

export interface CommerceHooks {
  /** Runs in the transaction that marks an order paid (docs/outreach.md, "Stopping once the family pays"). */
  onPaidInTx?(orderId: string, tx: Tx): Promise<unknown>;
}

/**
 * Orders, payments and download links wired together (routes and the reconcile sweep share it).
 * The process's services pass their own customers service and outbox; scripts and tests that
 * build one from a runtime get the same behaviour from fresh ones on the same database. Whichever
 * answer pays an order also counts its coupon use, in the same transaction (docs/packages-and-coupons.md,
 * "Counting a coupon's uses"), and marks its sale lines paid for the season reports (docs/reports.md#revenue-of-a-line).
 */
export function createCommerce(
  deps: Deps,
  customers?: CustomerService,
  outbox: Outbox = createOutbox(deps),
  hooks: CommerceHooks = {},
  coupons: CouponsForOrders = createCouponService(deps),
) {
  const downloads = createDownloadLinks(deps.config.jwtSecret, deps.config.publicUrl);
  const sales = createSalesRecording(deps);
  // Each needs the other: the order page settles a pending payment, a paid payment confirms the order.
  const orders = createOrdersService(
    deps,
    downloads,
    { reconcilePayment: (orderId) => payments.reconcileOrder(orderId) },
    customers ?? createCustomerService(deps, outbox),
    outbox,
    coupons,
  );
  const payments: PaymentsService = createPaymentsService({
    knex: deps.knex,
    logger: deps.logger,
    publicUrl: deps.config.publicUrl,
    gateway: deps.gateway,
    queryIntervalMs: deps.config.paymentQueryIntervalMs,
    onPaid: (orderId, tx) => orders.queueConfirmation(orderId, tx),
    onPaidInTx: async (orderId, tx) => {
      await coupons.markPaid(orderId, tx);
      await sales.orderPaid(orderId, tx);
      await hooks.onPaidInTx?.(orderId, tx);
    },
    paymentMethods: deps.config.paymentMethods,
    bankTransferExpiryDays: deps.config.bankTransferExpiryDays,
    onExpired: (orderId, tx, paymentId) => orders.queuePaymentExpired(orderId, tx, paymentId),
    onTransferAwaiting: (orderId, paymentId, tx) => orders.queueTransferAwaiting(orderId, paymentId, tx),
    // A payment that ended unpaid gives the coupon use back; paying again takes one again (docs/packages-and-coupons.md, "Holds that lapse").
    onPaymentEnded: (orderId, tx) => coupons.paymentEnded(orderId, tx),
    beforePayment: (orderId, order) => coupons.reclaim(orderId, order.placedWithCoupon),
    mailQueued: () => outbox.kick(),
    metrics: deps.metrics,
  });
  return { downloads, orders, payments };
}
export type Commerce = ReturnType<typeof createCommerce>;
