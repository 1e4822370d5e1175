import Router from '@koa/router';
import { paymentInitiateSchema } from '../../contract/orders';
import { listedPaymentMethod, type PaymentMethodsResponse } from '../../contract/payment-methods';
import type { AppContext, AppState } from '../http/context';
import { parse } from '../http/validate';
import type { Deps } from '../deps';
import type { Services } from '../services';
import { readFormPairs } from './paygate/form-body';
import { parseFormPairs } from './paygate/checksum';
import { presentInitiation } from './payments.presenter';

export function createPaymentRoutes(deps: Deps, { commerce }: Services) {
  const { payments } = commerce;
  const router = new Router<AppState, AppContext>();

  /** The enabled payment methods, in the contract's order (docs/payments.md, "Payment methods"): public, configuration only. */
  router.get('/payment/methods', (ctx) => {
    const body: PaymentMethodsResponse = { methods: deps.config.paymentMethods.map(listedPaymentMethod(deps.config.bankAccount)) };
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = body;
  });

  /** The server's own amount, currency and URLs: the client's amount and URLs are ignored (docs/payments.md). */
  router.post('/payment/initiate', async (ctx) => {
    const { orderId, method } = parse(paymentInitiateSchema, ctx.request.body);
    const outcome = await payments.start(orderId.toUpperCase(), method);
    if (!outcome.ok) ctx.status = 502;
    ctx.body = presentInitiation(outcome);
  });

  /** Server-to-server notify: plain `OK` only after the state change is committed. */
  router.post('/payment/notify', async (ctx) => {
    const result = await payments.notify(await readFormPairs(ctx));
    ctx.type = 'text/plain';
    ctx.set('Cache-Control', 'no-store');
    if (result.ok) {
      ctx.body = 'OK';
    } else {
      ctx.status = 400;
      ctx.body = 'ERROR';
    }
  });

  /** The browser's return (a form POST; the query-string variant is accepted too). */
  const handleReturn = async (ctx: AppContext) => {
    const orderId = String(ctx.query.orderId ?? '').toUpperCase();
    const posted = await readFormPairs(ctx);
    const pairs = posted.length > 0 ? posted : parseFormPairs(ctx.querystring).filter(([name]) => name !== 'orderId');
    ctx.status = 303;
    ctx.redirect(await payments.handleReturn(orderId, pairs));
  };
  router.post('/payment/return', handleReturn);
  router.get('/payment/return', handleReturn);

  return router;
}
