import Router from '@koa/router';
import { staffLoginSchema, staffRegisterSchema, photographerCreateSchema } from '../../contract/auth';
import { id } from '../../contract/fields';
import { CATALOGUE_ROUTE_MSG } from '../../contract/messages';
import type { AppContext, AppState } from '../http/context';
import { clientIp } from '../http/context';
import { parse } from '../http/validate';
import { requireAdmin, requireStaff } from '../http/auth';
import type { Deps } from '../deps';
import type { Services } from '../services';

export function createStaffRoutes(deps: Deps, services: Services) {
  const service = services.staff;
  const router = new Router<AppState, AppContext>();

  router.post('/auth/login', async (ctx) => {
    ctx.body = await service.login(parse(staffLoginSchema, ctx.request.body), clientIp(ctx));
  });

  router.get('/auth/register', async (ctx) => {
    ctx.body = { open: await service.registrationOpen() };
  });

  router.post('/auth/register', async (ctx) => {
    const input = parse(staffRegisterSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await service.register(input);
  });

  router.get('/auth/me', requireStaff, async (ctx) => {
    const principal = ctx.state.principal;
    ctx.body = { user: await service.me(principal.kind === 'staff' ? principal.id : null) };
  });

  router.get('/photographers', requireAdmin, async (ctx) => {
    ctx.body = await service.list();
  });

  router.post('/photographers', requireAdmin, async (ctx) => {
    const input = parse(photographerCreateSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await service.create(input);
  });

  router.delete('/photographers/:id', requireAdmin, async (ctx) => {
    const target = parse(id(CATALOGUE_ROUTE_MSG.staffIdInvalid), ctx.params.id);
    const actor = ctx.state.principal.kind === 'staff' ? ctx.state.principal.id : 0;
    await service.delete(target, actor);
    ctx.body = { message: CATALOGUE_ROUTE_MSG.staffDeleted };
  });

  return router;
}
