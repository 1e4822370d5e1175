import Router from '@koa/router';
import type { AppContext, AppState } from '../http/context';
import { requireStaff } from '../http/auth';
import type { Deps } from '../deps';
import type { Services } from '../services';

export function createDashboardRoutes(deps: Deps, services: Services) {
  const service = services.dashboard;
  const router = new Router<AppState, AppContext>();

  router.get('/dashboard/stats', requireStaff, async (ctx) => {
    ctx.body = await service.stats();
  });

  return router;
}
