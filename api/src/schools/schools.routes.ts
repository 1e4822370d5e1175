import Router from '@koa/router';
import { SLUG_PATTERN, schoolCreateSchema, schoolUpdateSchema, schoolVerifySchema } from '../../contract/schools';
import { MSG, STUDENT_MSG } from '../../contract/messages';
import { id } from '../../contract/fields';
import type { AppContext, AppState } from '../http/context';
import { clientIp } from '../http/context';
import { parse } from '../http/validate';
import { isStaff, requireStaff } from '../http/auth';
import { notFound, unauthorized } from '../http/errors';
import { createVisibility, schoolUnlocked, visibleClasses } from '../students/visibility';
import { createStudentRepository } from '../students/students.repository';
import type { Deps } from '../deps';
import { createAlbumService } from '../albums/albums.service';
import { presentAlbums } from '../albums/albums.presenter';
import { createSchoolService } from './schools.service';
import { presentSchoolBySlug } from './schools.presenter';

const schoolId = id('School id must be a positive whole number');

/** Answers that depend on the caller's grant or token must not be reused by a shared cache. */
const PRIVATE = 'private, no-store';

export function createSchoolRoutes(deps: Deps) {
  const service = createSchoolService(deps);
  const albums = createAlbumService(deps);
  const visibility = createVisibility(createStudentRepository(deps.knex));
  const router = new Router<AppState, AppContext>();

  router.get('/schools', async (ctx) => {
    ctx.set('Cache-Control', PRIVATE);
    ctx.body = isStaff(ctx) ? await service.listStaff() : await service.listPublic();
  });

  router.post('/schools', requireStaff, async (ctx) => {
    const input = parse(schoolCreateSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await service.create(input);
  });

  router.get('/schools/by-id/:id', requireStaff, async (ctx) => {
    ctx.set('Cache-Control', PRIVATE);
    ctx.body = await service.getStaff(parse(schoolId, ctx.params.id));
  });

  router.get('/schools/:slug', async (ctx) => {
    const slug = (ctx.params.slug ?? '').toLowerCase();
    const school = SLUG_PATTERN.test(slug) ? await service.findBySlug(slug) : undefined;
    if (!school) throw notFound(MSG.schoolNotFound);
    ctx.set('Cache-Control', PRIVATE);
    const viewer = deps.access.viewer(ctx);
    ctx.body = presentSchoolBySlug(school, schoolUnlocked(viewer, school, await visibility.grantedStudents(viewer)));
  });

  router.post('/schools/:slug/verify', async (ctx) => {
    const { password } = parse(schoolVerifySchema, ctx.request.body);
    const school = await service.verify(ctx.params.slug ?? '', password, clientIp(ctx));
    deps.access.grantSchool(ctx, school.id);
    ctx.body = { success: true, school };
  });

  router.patch('/schools/:id', requireStaff, async (ctx) => {
    const target = parse(schoolId, ctx.params.id);
    ctx.body = await service.update(target, parse(schoolUpdateSchema, ctx.request.body));
  });

  router.delete('/schools/:id', requireStaff, async (ctx) => {
    await service.delete(parse(schoolId, ctx.params.id));
    ctx.body = { message: 'School deleted' };
  });

  router.get('/schools/:id/albums', async (ctx) => {
    const school = await service.get(parse(schoolId, ctx.params.id));
    const viewer = deps.access.viewer(ctx);
    const shown = visibleClasses(viewer, school, await albums.listForSchool(school.id), await visibility.grantedStudents(viewer));
    if (!shown) {
      throw school.accessMode === 'student_codes'
        ? unauthorized(STUDENT_MSG.studentAccessRequired, 'STUDENT_LOCKED')
        : unauthorized(MSG.schoolAccessRequired, 'SCHOOL_LOCKED');
    }
    ctx.set('Cache-Control', PRIVATE);
    ctx.body = presentAlbums(shown);
  });

  return router;
}
