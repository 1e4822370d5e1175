import Router from '@koa/router';
import { salesReportQuerySchema, schoolsReportQuerySchema } from '../../contract/reports';
import type { AppContext, AppState } from '../http/context';
import { requireStaff } from '../http/auth';
import { parse } from '../http/validate';
import type { Deps } from '../deps';
import type { Services } from '../services';

/** Season reports for staff (docs/reports.md): the answers are the contract's shapes as built by the service. */
export function createReportRoutes(_deps: Deps, services: Services) {
  const service = services.reports;
  const router = new Router<AppState, AppContext>();

  router.get('/reports/schools', requireStaff, async (ctx) => {
    ctx.body = await service.schools(parse(schoolsReportQuerySchema, ctx.query));
  });

  router.get('/reports/sales', requireStaff, async (ctx) => {
    ctx.body = await service.sales(parse(salesReportQuerySchema, ctx.query));
  });

  return router;
}
