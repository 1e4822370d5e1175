import Router from '@koa/router';
import { schoolCreateSchema, schoolUpdateSchema, schoolVerifySchema } from '../../contract/schools';
import { id } from '../../contract/fields';
import { CATALOGUE_ROUTE_MSG } from '../../contract/messages';
import type { AppContext, AppState } from '../http/context';
import { clientIp } from '../http/context';
import { parse } from '../http/validate';
import { sameOriginOnly } from '../http/same-origin';
import { isStaff, requireAdmin, requireStaff } from '../http/auth';
import type { Deps } from '../deps';
import type { Services } from '../services';

const schoolId = id(CATALOGUE_ROUTE_MSG.schoolIdInvalid);

export function createSchoolRoutes(deps: Deps, services: Services) {
  const service = services.schools;
  const router = new Router<AppState, AppContext>();
  const sameOrigin = sameOriginOnly(deps.config.publicUrl);

  router.get('/schools', async (ctx) => {
    ctx.body = await service.list(isStaff(ctx));
  });

  router.post('/schools', requireStaff, async (ctx) => {
    const input = parse(schoolCreateSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await service.create(input);
  });

  router.get('/schools/by-id/:id', requireStaff, async (ctx) => {
    ctx.body = await service.getStaff(parse(schoolId, ctx.params.id));
  });

  router.get('/schools/:slug', async (ctx) => {
    const school = await service.bySlug(ctx.params.slug ?? '', await deps.access.viewer(ctx));
    ctx.body = school;
  });

  router.post('/schools/:slug/verify', sameOrigin, async (ctx) => {
    const { password } = parse(schoolVerifySchema, ctx.request.body);
    const { school, grantEpoch } = await service.verify(ctx.params.slug ?? '', password, clientIp(ctx));
    deps.access.grantSchool(ctx, school.id, grantEpoch);
    // docs/reports.md, "Families who opened the gallery": a grant opened the school.
    await services.galleryVisits.schoolOpened(school.id, deps.access.held(ctx).schools.find((entry) => entry.id === school.id), isStaff(ctx));
    ctx.body = { success: true, school };
  });

  router.patch('/schools/:id', requireStaff, async (ctx) => {
    const target = parse(schoolId, ctx.params.id);
    const role = ctx.state.principal.kind === 'staff' ? ctx.state.principal.role : 'photographer';
    ctx.body = await service.update(target, parse(schoolUpdateSchema, ctx.request.body), role);
  });

  /** Admins only (docs/accounts.md, "What a photographer may not do"). */
  router.delete('/schools/:id', requireAdmin, async (ctx) => {
    await service.delete(parse(schoolId, ctx.params.id));
    ctx.body = { message: CATALOGUE_ROUTE_MSG.schoolDeleted };
  });

  router.get('/schools/:id/albums', async (ctx) => {
    const albums = await service.visibleAlbums(parse(schoolId, ctx.params.id), await deps.access.viewer(ctx));
    ctx.body = albums;
  });

  return router;
}
