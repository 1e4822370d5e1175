import Router from '@koa/router';
import { cartRestoreRequestSchema, guardianCartSchema, type CartRestoreResponse } from '../../contract/outreach';
import type { AppContext, AppState } from '../http/context';
import { sameOriginOnly } from '../http/same-origin';
import { isStaff } from '../http/auth';
import { parse } from '../http/validate';
import { guardianOf, setGuardianCookie } from '../outreach/guardian-cookie';
import type { Deps } from '../deps';
import type { Services } from '../services';

/** The cart mirror and the restore link (docs/outreach.md, "Abandoned carts and unpaid orders"). */
export function createCartRoutes(deps: Deps, services: Services) {
  const service = services.carts;
  const router = new Router<AppState, AppContext>();
  const sameOrigin = sameOriginOnly(deps.config.publicUrl);
  const secret = deps.config.jwtSecret;

  /** 200 { mirrored }: false (nothing stored) unless this browser's guardian cookie names a confirmed, subscribed guardian. */
  router.put('/guardians/cart', sameOrigin, async (ctx) => {
    const { items } = parse(guardianCartSchema, ctx.request.body);
    const mirrored = await service.mirror(guardianOf(ctx, secret), items, await deps.access.viewer(ctx));
    ctx.body = { mirrored };
  });

  /**
   * The cart of a "still in your cart" e-mail, on any device: the lines priced now, and the grants
   * (gallery cookie) to see their photos here, plus the guardian cookie so this browser mirrors too.
   */
  router.post('/guardians/cart/restore', sameOrigin, async (ctx) => {
    const { token } = parse(cartRestoreRequestSchema, ctx.request.body);
    const { cart, grants, guardianId } = await service.restore(token, await deps.access.viewer(ctx));
    for (const school of grants.schools) deps.access.grantSchool(ctx, school.id, school.epoch);
    for (const student of grants.students) deps.access.grantStudent(ctx, student.id, student.code);
    // docs/reports.md, "Families who opened the gallery": the restore opened these schools and children here.
    const held = deps.access.held(ctx);
    const staff = isStaff(ctx);
    for (const school of grants.schools) await services.galleryVisits.schoolOpened(school.id, held.schools.find((entry) => entry.id === school.id), staff);
    await services.galleryVisits.childrenOpened(grants.students.map((student) => student.id), staff);
    setGuardianCookie(ctx, secret, guardianId);
    const body: CartRestoreResponse = {
      items: cart.items.map((line) => ({
        photoId: line.photoId,
        albumId: line.albumId,
        photoName: line.photoName,
        photoPreview: line.photoPreview,
        productType: line.productType,
        productName: line.productName,
        productDescription: line.productDescription,
        unitPrice: line.unitPrice,
        quantity: line.quantity,
        schoolId: line.schoolId,
        schoolName: line.schoolName,
        studentId: line.studentId,
        studentName: line.studentName,
      })),
      dropped: cart.dropped,
      schoolSlug: cart.schoolSlug,
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  return router;
}
