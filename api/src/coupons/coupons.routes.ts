import Router from '@koa/router';
import { couponCreateSchema, couponPatchSchema } from '../../contract/coupons';
import { id } from '../../contract/fields';
import { COUPON_MSG } from '../../contract/messages';
import type { AppContext, AppState } from '../http/context';
import { requireStaff } from '../http/auth';
import { parse } from '../http/validate';
import type { Deps } from '../deps';
import type { Services } from '../services';

const couponId = id(COUPON_MSG.idInvalid);
const schoolId = id(COUPON_MSG.schoolIdInvalid);

/** Staff's coupons (docs/packages-and-coupons.md, "Coupons"); parents only ever send a code with an order. */
export function createCouponRoutes(_deps: Deps, services: Services) {
  const service = services.coupons;
  const router = new Router<AppState, AppContext>();

  /** Every coupon, or with `?schoolId=` that school's own and those for every school. */
  router.get('/coupons', requireStaff, async (ctx) => {
    const filter = ctx.query.schoolId === undefined ? {} : { schoolId: parse(schoolId, ctx.query.schoolId) };
    ctx.body = await service.list(filter);
  });

  router.get('/coupons/:id', requireStaff, async (ctx) => {
    ctx.body = await service.get(parse(couponId, ctx.params.id));
  });

  router.post('/coupons', requireStaff, async (ctx) => {
    const created = await service.create(parse(couponCreateSchema, ctx.request.body));
    ctx.status = 201;
    ctx.body = created;
  });

  router.patch('/coupons/:id', requireStaff, async (ctx) => {
    const target = parse(couponId, ctx.params.id);
    ctx.body = await service.update(target, parse(couponPatchSchema, ctx.request.body));
  });

  router.delete('/coupons/:id', requireStaff, async (ctx) => {
    await service.delete(parse(couponId, ctx.params.id));
    ctx.body = { message: COUPON_MSG.deleted };
  });

  return router;
}
