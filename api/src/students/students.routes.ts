import Router from '@koa/router';
import { id } from '../../contract/fields';
import { MSG, STUDENT_MSG, STUDENT_ROUTE_MSG } from '../../contract/messages';
import type { RemovedStudents } from '../../contract/child-removed';
import { ROSTER_MAX_BYTES } from '../../contract/student-codes';
import { assignPhotosSchema, codeRecoveryRequestSchema, rosterJsonSchema, studentUpdateSchema, studentVerifySchema } from '../../contract/students';
import { CODE_RECOVERY_MSG } from '../../contract/code-recovery';
import type { AppContext, AppState } from '../http/context';
import { clientIp, clientNetwork } from '../http/context';
import { isStaff, requireAdmin, requireStaff, staffActor } from '../http/auth';
import { unsupportedType } from '../http/errors';
import { readTextBody } from '../http/text-body';
import { ownPagesOnly, sameOriginOnly } from '../http/same-origin';
import { parse } from '../http/validate';
import type { Deps } from '../deps';
import type { Services } from '../services';
import { pathId } from '../photos/path-id';
import { parseRosterCsv, type RawRosterRow } from './roster-csv';
import { presentErasure, presentRosterPreview, presentStudent, presentUnlocked } from './students.presenter';

const albumId = (raw: string | undefined) => pathId(raw, MSG.classNotFound);
const studentId = (raw: string | undefined) => pathId(raw, STUDENT_MSG.studentNotFound);

/** A roster arrives as JSON rows or as a pasted/uploaded CSV file. */
async function readRoster(ctx: AppContext, bodyTimeoutMs: number): Promise<RawRosterRow[]> {
  if (ctx.is('text/csv', 'text/plain', 'application/csv', 'text/comma-separated-values')) {
    return parseRosterCsv(await readTextBody(ctx, ROSTER_MAX_BYTES, { tooLarge: STUDENT_MSG.rosterTooLarge, notUtf8: STUDENT_MSG.rosterNotUtf8 }, bodyTimeoutMs));
  }
  if (ctx.is('application/json')) {
    const { students } = parse(rosterJsonSchema, ctx.request.body);
    return students.map((row, index) => ({ row: index + 1, name: row.name, number: row.number, guardianEmail: row.guardianEmail, guardianPhone: row.guardianPhone }));
  }
  throw unsupportedType(STUDENT_MSG.rosterType);
}

export function createStudentRoutes(deps: Deps, services: Services) {
  const service = services.students;
  const router = new Router<AppState, AppContext>();
  const sameOrigin = sameOriginOnly(deps.config.publicUrl);

  router.get('/albums/:id/students', requireStaff, async (ctx) => {
    ctx.body = (await service.list(albumId(ctx.params.id))).map(presentStudent);
  });

  /** ?dryRun=true answers the row-by-row preview and imports nothing. */
  router.post('/albums/:id/students', requireStaff, async (ctx) => {
    const target = albumId(ctx.params.id);
    const rows = await readRoster(ctx, deps.config.requestBodyTimeoutMs);
    if (ctx.query.dryRun === 'true') {
      ctx.body = presentRosterPreview(await service.preview(target, rows));
      return;
    }
    ctx.status = 201;
    ctx.body = { students: (await service.importRoster(target, rows)).map(presentStudent) };
  });

  /** ?student=ID reprints one child's flyer. */
  router.get('/albums/:id/flyers.pdf', requireStaff, async (ctx) => {
    const target = albumId(ctx.params.id);
    const only = typeof ctx.query.student === 'string' ? parse(id(STUDENT_ROUTE_MSG.studentIdInvalid), ctx.query.student) : null;
    const { pdf, fileName } = await service.flyers(target, only);
    ctx.set('Content-Disposition', `attachment; filename="${fileName}"`);
    ctx.type = 'application/pdf';
    ctx.body = pdf;
  });

  router.post('/students/verify', sameOrigin, async (ctx) => {
    const { code } = parse(studentVerifySchema, ctx.request.body);
    const ip = clientIp(ctx);
    const { student, code: stored } = await service.verify(code, ip, clientNetwork(ip));
    deps.access.grantStudent(ctx, student.id, stored);
    // docs/reports.md, "Families who opened the gallery": a child unlocked by code.
    await services.galleryVisits.childOpened({ studentId: student.id, albumId: student.albumId, schoolId: student.schoolId }, isStaff(ctx));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { success: true, ...presentUnlocked(student) };
  });

  /**
   * "Lost your code? Get it by SMS" (docs/sms.md, "Codes recovered by phone"): only from the shop's
   * own pages; an invalid number is a 400 naming `phone`; otherwise always the same 202, whether
   * or not the number is on a class list, and 429 past the limits.
   */
  router.post('/students/recover', ownPagesOnly(deps.config.publicUrl, CODE_RECOVERY_MSG.fromPage), async (ctx) => {
    const { phone } = parse(codeRecoveryRequestSchema, ctx.request.body);
    const answer = await services.codeRecovery.recover(phone, clientIp(ctx));
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 202;
    ctx.body = answer;
  });

  /** The children this browser holds codes for, so the family gallery can rebuild its tabs. */
  router.get('/students/unlocked', async (ctx) => {
    ctx.body = (await service.unlocked((await deps.access.viewer(ctx)).grant)).map(presentUnlocked);
  });

  /**
   * The children this browser's cookie still names that were erased at the school's request, so
   * their family is told so rather than asked for the code again (docs/access.md, "What the family
   * of an erased child sees"). Only ids the server signed into this cookie are answered for.
   */
  router.get('/students/removed', async (ctx) => {
    const now = Math.floor(Date.now() / 1000);
    const held = deps.access.read(ctx).students.filter((entry) => entry.exp > now).map((entry) => entry.id);
    const body: RemovedStudents = { studentIds: await service.removed(held) };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  /**
   * "Forget this child on this device": nothing to check, the grant just loses the child; the
   * other entries keep their end (docs/access.md, "Grants end").
   */
  router.delete('/students/:id/access', sameOrigin, async (ctx) => {
    deps.access.forgetStudent(ctx, studentId(ctx.params.id));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { success: true };
  });

  router.get('/students/:id/photos', async (ctx) => {
    const target = studentId(ctx.params.id);
    const photos = await service.photosOf(target, await deps.access.viewer(ctx));
    ctx.body = photos;
  });

  router.patch('/students/:id', requireStaff, async (ctx) => {
    const target = studentId(ctx.params.id);
    ctx.body = presentStudent(await service.update(target, parse(studentUpdateSchema, ctx.request.body), staffActor(ctx)));
  });

  router.delete('/students/:id', requireStaff, async (ctx) => {
    await service.remove(studentId(ctx.params.id));
    ctx.body = { message: STUDENT_ROUTE_MSG.studentRemoved };
  });

  /** Admins only (docs/accounts.md, "What a photographer may not do"). */
  router.post('/students/:id/erase', requireAdmin, async (ctx) => {
    ctx.body = presentErasure(await service.erase(studentId(ctx.params.id), staffActor(ctx)));
  });

  router.put('/photos/student', requireStaff, async (ctx) => {
    ctx.body = await service.assignPhotos(parse(assignPhotosSchema, ctx.request.body));
  });

  return router;
}
