import Router from '@koa/router';
import { customerLoginSchema, customerRegisterSchema, forgotPasswordSchema, resetPasswordSchema } from '../../contract/auth';
import type { AppContext, AppState } from '../http/context';
import { clientIp } from '../http/context';
import { parse } from '../http/validate';
import { requireCustomer } from '../http/auth';
import type { Deps } from '../deps';
import type { Services } from '../services';
import { presentCustomer, presentSession } from './customers.presenter';

/** Customer accounts: register, sign in, forgot and reset password, and who am I (docs/accounts.md). */
export function createCustomerRoutes(deps: Deps, services: Services) {
  const service = services.customers;
  const router = new Router<AppState, AppContext>();

  router.post('/auth/customer/register', async (ctx) => {
    const input = parse(customerRegisterSchema, ctx.request.body);
    const session = await service.register(input);
    ctx.status = 201;
    ctx.body = presentSession(session);
  });

  router.post('/auth/customer/login', async (ctx) => {
    ctx.body = presentSession(await service.login(parse(customerLoginSchema, ctx.request.body), clientIp(ctx)));
  });

  router.post('/auth/customer/forgot-password', async (ctx) => {
    ctx.body = await service.forgotPassword(parse(forgotPasswordSchema, ctx.request.body), clientIp(ctx));
  });

  router.post('/auth/customer/reset-password', async (ctx) => {
    ctx.body = presentSession(await service.resetPassword(parse(resetPasswordSchema, ctx.request.body), clientIp(ctx)));
  });

  router.get('/auth/customer/me', requireCustomer, async (ctx) => {
    const principal = ctx.state.principal;
    if (principal.kind !== 'customer') return;
    ctx.body = { user: presentCustomer(await service.me(principal.id)) };
  });

  return router;
}
