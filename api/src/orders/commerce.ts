import type { Deps } from '../deps';
import { createDownloadLinks } from './downloads';
import { createOrdersService } from './orders.service';
import { createPaymentsService } from '../payments/payments.service';

/** Orders, payments and download links wired together (routes and the reconcile sweep share it). */
export function createCommerce(deps: Deps) {
  const downloads = createDownloadLinks(deps.config.jwtSecret, deps.config.publicUrl);
  const orders = createOrdersService(deps, downloads);
  const payments = createPaymentsService({
    knex: deps.knex,
    logger: deps.logger,
    publicUrl: deps.config.publicUrl,
    gateway: deps.gateway,
    queryIntervalMs: deps.config.paymentQueryIntervalMs,
    onPaid: (orderId) => orders.sendConfirmation(orderId),
  });
  return { downloads, orders, payments };
}
export type Commerce = ReturnType<typeof createCommerce>;
