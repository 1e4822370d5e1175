import type { Deps } from '../deps';
import type { Tx } from '../db/database';
import type { CustomerService } from '../customers/customers.service';
import { createDownloadLinks } from './downloads';
import { createOrdersService } from './orders.service';
import { createPaymentsService, type PaymentsService } from '../payments/payments.service';

export interface CommerceHooks {
  /** Runs in the transaction that marks an order paid (docs/outreach.md, "Stopping once the family pays"). */
  onPaidInTx?(orderId: string, tx: Tx): Promise<unknown>;
}

/** Orders, payments and download links wired together (routes and the reconcile sweep share it). */
export function createCommerce(deps: Deps, customers?: CustomerService, hooks: CommerceHooks = {}) {
  const downloads = createDownloadLinks(deps.config.jwtSecret, deps.config.publicUrl);
  // Each needs the other: the order page settles a pending payment, a paid payment confirms the order.
  const orders = createOrdersService(deps, downloads, { reconcilePayment: (orderId) => payments.reconcileOrder(orderId) }, customers);
  const payments: PaymentsService = createPaymentsService({
    knex: deps.knex,
    logger: deps.logger,
    publicUrl: deps.config.publicUrl,
    gateway: deps.gateway,
    queryIntervalMs: deps.config.paymentQueryIntervalMs,
    onPaid: (orderId) => orders.sendConfirmation(orderId),
    onPaidInTx: hooks.onPaidInTx,
    paymentMethods: deps.config.paymentMethods,
    bankTransferExpiryDays: deps.config.bankTransferExpiryDays,
    onExpired: (orderId) => orders.sendPaymentExpired(orderId),
  });
  return { downloads, orders, payments };
}
export type Commerce = ReturnType<typeof createCommerce>;
