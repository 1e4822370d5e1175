import Router from '@koa/router';
import {
  forgotPasswordSchema,
  photographerCreateSchema,
  resetPasswordSchema,
  staffChangePasswordSchema,
  staffLoginSchema,
  staffRegisterSchema,
} from '../../contract/auth';
import { id } from '../../contract/fields';
import { CATALOGUE_ROUTE_MSG, MSG } from '../../contract/messages';
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

  /** Staff passwords: change (signed in), forgot and reset by e-mail (docs/accounts.md, "Staff passwords"). */
  router.post('/auth/password', requireStaff, async (ctx) => {
    const input = parse(staffChangePasswordSchema, ctx.request.body);
    ctx.body = await service.changePassword(staffId(ctx), input, clientIp(ctx));
  });

  router.post('/auth/forgot-password', async (ctx) => {
    ctx.body = await service.forgotPassword(parse(forgotPasswordSchema, ctx.request.body), clientIp(ctx));
  });

  router.post('/auth/reset-password', async (ctx) => {
    ctx.body = await service.resetPassword(parse(resetPasswordSchema, ctx.request.body), clientIp(ctx));
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

  /** Signs another staff member out of every device (docs/accounts.md, "Staff sessions"). */
  router.post('/photographers/:id/sign-out', requireAdmin, async (ctx) => {
    const target = parse(id(CATALOGUE_ROUTE_MSG.staffIdInvalid), ctx.params.id);
    await service.revokeSessions(target, staffId(ctx));
    ctx.body = { message: MSG.sessionsRevoked };
  });

  return router;
}

/** The signed-in staff member's id (behind requireStaff or requireAdmin). */
function staffId(ctx: AppContext): number {
  const principal = ctx.state.principal;
  return principal.kind === 'staff' ? principal.id : 0;
}
