import Router from '@koa/router';
import { ORDER_STATUSES, type OrderStatus } from '../../contract/constants';
import { MSG, ORDER_MSG } from '../../contract/messages';
import { orderCreateSchema, orderQuoteRequestSchema, orderStatusUpdateSchema } from '../../contract/orders';
import { id } from '../../contract/fields';
import { packagePhotosChoiceSchema, PREPAID_MSG } from '../../contract/prepaid';
import { clientIp, type AppContext, type AppState } from '../http/context';
import { parse } from '../http/validate';
import { sendFile } from '../http/send-file';
import { requireCustomer, requireStaff } from '../http/auth';
import { badRequest, forbidden, notFound } from '../http/errors';
import type { Deps } from '../deps';
import type { Services } from '../services';
import { ORDER_ID_PATTERN } from './order-id';
import { presentOrder, presentOrderSummary, presentQuote } from './orders.presenter';
import { createOrderAccess } from './order-access';
import { createOrderLinks } from './order-links';
import type { OrderRecord } from './orders.repository';
import { createPrepaidPhotoLinks } from './prepaid-photo-links';
import { PREPAID_IMAGE_KINDS, type PrepaidPhotosResponse } from '../../contract/prepaid-photos';
import { thumbnailQuerySchema } from '../../contract/photos';
import { presentFamilyPhoto } from '../photos/photos.presenter';
import { pathId } from '../photos/path-id';

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,100}$/;

/** A package line id in the path: anything but a positive whole number is an unknown line (404). */
function parseLineId(raw: string | undefined): number {
  const parsed = id().safeParse(raw ?? '');
  if (!parsed.success) throw notFound(PREPAID_MSG.lineNotFound);
  return parsed.data;
}

export function createOrderRoutes(deps: Deps, services: Services) {
  const { orders, downloads } = services.commerce;
  const router = new Router<AppState, AppContext>();
  const orderAccess = createOrderAccess(deps.config.jwtSecret);
  const orderLinks = createOrderLinks(deps.config.jwtSecret);
  const prepaidPhotoLinks = createPrepaidPhotoLinks(deps.config.jwtSecret);
  const forStaff = (order: OrderRecord) => presentOrder(order, downloads.url, 'staff');
  const forFamily = (order: OrderRecord) => presentOrder(order, downloads.url, 'family');

  const orderId = (ctx: AppContext): string => {
    const value = String(ctx.params.id ?? '').toUpperCase();
    if (!ORDER_ID_PATTERN.test(value)) throw notFound(ORDER_MSG.orderNotFound);
    return value;
  };

  router.post('/orders', async (ctx) => {
    const input = parse(orderCreateSchema, ctx.request.body);
    const key = ctx.get('Idempotency-Key').trim() || null;
    if (key && !IDEMPOTENCY_KEY.test(key)) throw badRequest(ORDER_MSG.idempotencyKeyFormat);
    const principal = ctx.state.principal;
    const result = await orders.create(input, {
      customerId: principal.kind === 'customer' ? principal.id : null,
      idempotencyKey: key,
      viewer: await deps.access.viewer(ctx),
      clientIp: clientIp(ctx),
    });
    // This browser placed it: its confirmation token opens the order again (docs/access.md, "Reading an order").
    orderAccess.grant(ctx, result.order.id);
    ctx.status = result.replayed ? 200 : 201;
    ctx.body = { order: principal.kind === 'staff' ? forStaff(result.order) : forFamily(result.order), customerCreated: result.customerCreated };
  });

  /**
   * What the cart shows before paying: the lines, the family discount, the coupon and the total the
   * order will be charged, priced as `POST /orders` prices it and open to whoever may place that
   * order (docs/packages-and-coupons.md, "The order of discounts"). Nothing is stored.
   */
  router.post('/orders/quote', async (ctx) => {
    const input = parse(orderQuoteRequestSchema, ctx.request.body);
    const priced = await orders.quote(input, await deps.access.viewer(ctx));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentQuote(priced);
  });

  router.get('/orders', requireStaff, async (ctx) => {
    const status = typeof ctx.query.status === 'string' && ctx.query.status !== '' && ctx.query.status !== 'all' ? ctx.query.status : undefined;
    if (status && !ORDER_STATUSES.includes(status as OrderStatus)) throw badRequest(ORDER_MSG.statusFilterInvalid(ORDER_STATUSES));
    const school = typeof ctx.query.school === 'string' && ctx.query.school !== '' && ctx.query.school !== 'all' ? parse(id(ORDER_MSG.schoolFilterInvalid), ctx.query.school) : undefined;
    ctx.body = (await orders.list({ status: status as OrderStatus | undefined, schoolId: school })).map(forStaff);
  });

  /**
   * The confirmation page, before sign-in too; a pending order is reconciled with the gateway
   * first. The id alone gives only statuses and the total (docs/access.md, "Reading an order").
   */
  router.get('/orders/:id', async (ctx) => {
    const id = orderId(ctx);
    const order = await orders.getSettled(id);
    const principal = ctx.state.principal;
    const view = orders.readerView(order, {
      staff: principal.kind === 'staff',
      customerId: principal.kind === 'customer' ? principal.id : null,
      placedHere: orderAccess.holds(ctx, id),
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = view === 'staff' ? forStaff(order) : view === 'family' ? forFamily(order) : presentOrderSummary(order);
  });

  /**
   * The link of an order's SMS, behind its short link (docs/access.md, "Reading an order"): a valid
   * token gives this browser the order's confirmation token, as the browser that placed it has;
   * then, valid or not, the browser goes on to the confirmation page (without the token in its
   * address), which shows what this browser may see.
   */
  router.get('/orders/:id/open', async (ctx) => {
    const id = orderId(ctx);
    const token = typeof ctx.query.t === 'string' ? ctx.query.t : '';
    if (token.length <= 1000 && orderLinks.opens(token, id)) orderAccess.grant(ctx, id);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.status = 303;
    ctx.redirect(`${deps.config.publicUrl}/order-confirmation/${encodeURIComponent(id)}`);
  });

  /**
   * The order's customer cancels it while unpaid: signed in, or the browser that placed it (its
   * order_access cookie, or its Idempotency-Key), docs/access.md, "Reading an order".
   */
  router.post('/orders/:id/cancel', async (ctx) => {
    const principal = ctx.state.principal;
    const key = ctx.get('Idempotency-Key').trim() || null;
    if (key && !IDEMPOTENCY_KEY.test(key)) throw badRequest(ORDER_MSG.idempotencyKeyFormat);
    const id = orderId(ctx);
    const order = await orders.cancelUnpaid(id, {
      customerId: principal.kind === 'customer' ? principal.id : null,
      idempotencyKey: key,
      placedHere: orderAccess.holds(ctx, id),
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = forFamily(order);
  });

  /**
   * A prepaid package's photos (docs/prepaid.md, "Choosing the photos"): the order's owner (its
   * customer signed in, or this browser holding the order's confirmation token: it placed the order
   * or opened a message's order link), or staff. Anyone else 403; an unknown order or line 404.
   */
  router.put('/orders/:id/packages/:lineId/photos', async (ctx) => {
    const id = orderId(ctx);
    const lineId = parseLineId(ctx.params.lineId);
    const { photos } = parse(packagePhotosChoiceSchema, ctx.request.body);
    const principal = ctx.state.principal;
    const order = await services.prepaid.choose(id, lineId, photos, {
      staff: principal.kind === 'staff',
      customerId: principal.kind === 'customer' ? principal.id : null,
      placedHere: orderAccess.holds(ctx, id),
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = principal.kind === 'staff' ? forStaff(order) : forFamily(order);
  });

  /**
   * The photos a prepaid package is chosen from (docs/prepaid.md, "Choosing from any device"): to
   * whoever may choose them (as the PUT below), the line's child's released photos, each with image
   * addresses signed for this order's line, so a browser that only opened the order link, or the
   * signed-in customer on another device, loads them without the child's code.
   */
  router.get('/orders/:id/packages/:lineId/photos', async (ctx) => {
    const id = orderId(ctx);
    const lineId = parseLineId(ctx.params.lineId);
    const principal = ctx.state.principal;
    const photos = await services.prepaid.photosToChoose(id, lineId, {
      staff: principal.kind === 'staff',
      customerId: principal.kind === 'customer' ? principal.id : null,
      placedHere: orderAccess.holds(ctx, id),
    });
    const token = prepaidPhotoLinks.token(id, lineId);
    const base = `/api/orders/${encodeURIComponent(id)}/packages/${lineId}/photos`;
    const answer: PrepaidPhotosResponse = {
      photos: photos.map((photo) => ({
        ...presentFamilyPhoto(photo, photo.studentId),
        thumbnailUrl: `${base}/${photo.id}/thumbnail?t=${token}`,
        smallThumbnailUrl: `${base}/${photo.id}/thumbnail?size=small&t=${token}`,
        previewUrl: `${base}/${photo.id}/watermarked?t=${token}`,
      })),
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = answer;
  });

  /**
   * An image of that list (docs/prepaid.md, "Choosing from any device"): its signed address, or
   * the order's owner as the list knows it; only a released photo of the line's child (404 else).
   */
  router.get('/orders/:id/packages/:lineId/photos/:photoId/:kind', async (ctx) => {
    const id = orderId(ctx);
    const lineId = parseLineId(ctx.params.lineId);
    const kind = PREPAID_IMAGE_KINDS.find((candidate) => candidate === ctx.params.kind);
    if (!kind) throw notFound(MSG.photoNotFound);
    const photo = pathId(ctx.params.photoId, MSG.photoNotFound);
    const { size } = parse(thumbnailQuerySchema, ctx.query);
    const principal = ctx.state.principal;
    if (!prepaidPhotoLinks.opens(ctx.query.t === undefined ? '' : String(ctx.query.t), id, lineId)) {
      // Without a signed address, the owner itself (as the list above): the list answers its refusals.
      await services.prepaid.photosToChoose(id, lineId, {
        staff: principal.kind === 'staff',
        customerId: principal.kind === 'customer' ? principal.id : null,
        placedHere: orderAccess.holds(ctx, id),
      });
    }
    const small = size === 'small' || ctx.get('Save-Data').trim().toLowerCase() === 'on';
    await sendFile(ctx, await services.prepaid.photoImage(id, lineId, photo, kind, small));
  });

  router.put('/orders/:id', requireStaff, async (ctx) => {
    const { orderStatus } = parse(orderStatusUpdateSchema, ctx.request.body);
    ctx.body = forStaff(await orders.setStatus(orderId(ctx), orderStatus));
  });

  router.get('/customer/orders', requireCustomer, async (ctx) => {
    const principal = ctx.state.principal;
    if (principal.kind !== 'customer') throw forbidden(ORDER_MSG.orderNotFound);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await orders.listForCustomer(principal.id)).map(forFamily);
  });

  /** A paid digital copy: the full-resolution original with a proper file name (docs/access.md). */
  router.get('/downloads/:token', async (ctx) => {
    await sendFile(ctx, await orders.download(String(ctx.params.token ?? '')));
  });

  return router;
}
