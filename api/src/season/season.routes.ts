import Router from '@koa/router';
import { id } from '../../contract/fields';
import { CATALOGUE_ROUTE_MSG } from '../../contract/messages';
import { messageScheduleUpdateSchema, messageTestSchema } from '../../contract/outreach';
import type { AppContext, AppState } from '../http/context';
import { requireStaff } from '../http/auth';
import { parse } from '../http/validate';
import type { Deps } from '../deps';
import type { Services } from '../services';

const schoolId = id(CATALOGUE_ROUTE_MSG.schoolIdInvalid);

/**
 * A school's season timeline for staff (docs/outreach.md, "The season timeline"): both roles manage
 * schools' messages, like the school's other fields (docs/accounts.md, "What a photographer may not do").
 */
export function createSeasonRoutes(_deps: Deps, services: Services) {
  const season = services.season;
  const router = new Router<AppState, AppContext>();

  router.get('/schools/:id/messages/schedule', requireStaff, async (ctx) => {
    ctx.body = await season.getSchedule(parse(schoolId, ctx.params.id));
  });

  router.put('/schools/:id/messages/schedule', requireStaff, async (ctx) => {
    const target = parse(schoolId, ctx.params.id);
    ctx.body = await season.saveSchedule(target, parse(messageScheduleUpdateSchema, ctx.request.body));
  });

  router.get('/schools/:id/messages/preview', requireStaff, async (ctx) => {
    ctx.body = await season.preview(parse(schoolId, ctx.params.id));
  });

  router.post('/schools/:id/messages/test', requireStaff, async (ctx) => {
    const target = parse(schoolId, ctx.params.id);
    const { kind } = parse(messageTestSchema, ctx.request.body);
    const principal = ctx.state.principal;
    if (principal.kind !== 'staff') return; // requireStaff let only staff through
    ctx.status = 202;
    ctx.body = await season.sendTest(target, kind, principal.email);
  });

  router.get('/schools/:id/messages/stats', requireStaff, async (ctx) => {
    ctx.body = await season.stats(parse(schoolId, ctx.params.id));
  });

  return router;
}
