import Router from '@koa/router';
import { AUDIT_PAGE_DEFAULT, auditQuerySchema } from '../../contract/audit';
import type { AppContext, AppState } from '../http/context';
import { requireAdmin } from '../http/auth';
import { parse } from '../http/validate';
import type { Deps } from '../deps';
import type { Services } from '../services';
import { presentAuditPage } from './audit.presenter';

export function createAuditRoutes(_deps: Deps, services: Services) {
  const router = new Router<AppState, AppContext>();

  /** Admins only (docs/accounts.md, "The audit log"): newest first, `?before=` for older entries. */
  router.get('/audit-log', requireAdmin, async (ctx) => {
    const query = parse(auditQuerySchema, ctx.query);
    const limit = query.limit ?? AUDIT_PAGE_DEFAULT;
    ctx.body = presentAuditPage(await services.audit.list({ before: query.before, limit }), limit);
    ctx.set('Cache-Control', 'private, no-store');
  });

  return router;
}
