import Router from '@koa/router';
import { ORDER_STATUSES, type OrderStatus } from '../../contract/constants';
import { ORDER_MSG, STUDENT_MSG } from '../../contract/messages';
import { orderCreateSchema, orderStatusUpdateSchema } from '../../contract/orders';
import { id } from '../../contract/fields';
import type { AppContext, AppState } from '../http/context';
import { parse } from '../http/validate';
import { requireCustomer, requireStaff } from '../http/auth';
import { badRequest, forbidden, notFound } from '../http/errors';
import type { Deps } from '../deps';
import type { Commerce } from './commerce';
import { ORDER_ID_PATTERN } from './order-id';
import { isDigitalProduct } from '../../contract/constants';

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,100}$/;

export function createOrderRoutes(deps: Deps, commerce: Commerce) {
  const { orders, payments, downloads } = commerce;
  const router = new Router<AppState, AppContext>();

  const orderId = (ctx: AppContext): string => {
    const value = String(ctx.params.id ?? '').toUpperCase();
    if (!ORDER_ID_PATTERN.test(value)) throw notFound(ORDER_MSG.orderNotFound);
    return value;
  };

  router.post('/orders', async (ctx) => {
    const input = parse(orderCreateSchema, ctx.request.body);
    const key = ctx.get('Idempotency-Key').trim() || null;
    if (key && !IDEMPOTENCY_KEY.test(key)) throw badRequest('Idempotency-Key must be 8 to 100 letters, digits, - or _');
    const principal = ctx.state.principal;
    const result = await orders.create(input, {
      customerId: principal.kind === 'customer' ? principal.id : null,
      idempotencyKey: key,
      viewer: deps.access.viewer(ctx),
    });
    ctx.status = result.replayed ? 200 : 201;
    ctx.body = { order: result.order, customerCreated: result.customerCreated };
  });

  router.get('/orders', requireStaff, async (ctx) => {
    const status = typeof ctx.query.status === 'string' && ctx.query.status !== '' && ctx.query.status !== 'all' ? ctx.query.status : undefined;
    if (status && !ORDER_STATUSES.includes(status as OrderStatus)) throw badRequest(`Order status must be one of ${ORDER_STATUSES.join(', ')}`);
    const school = typeof ctx.query.school === 'string' && ctx.query.school !== '' && ctx.query.school !== 'all' ? parse(id('School must be a school id'), ctx.query.school) : undefined;
    ctx.body = await orders.list({ status: status as OrderStatus | undefined, schoolId: school });
  });

  /** No login (the confirmation page); a pending order is reconciled with the gateway first. */
  router.get('/orders/:id', async (ctx) => {
    const idValue = orderId(ctx);
    const order = await orders.get(idValue);
    if (order.paymentStatus !== 'completed') {
      await payments.reconcileOrder(idValue);
      ctx.body = await orders.get(idValue);
    } else {
      ctx.body = order;
    }
    ctx.set('Cache-Control', 'no-store');
  });

  router.put('/orders/:id', requireStaff, async (ctx) => {
    const { orderStatus } = parse(orderStatusUpdateSchema, ctx.request.body);
    ctx.body = await orders.setStatus(orderId(ctx), orderStatus);
  });

  router.get('/customer/orders', requireCustomer, async (ctx) => {
    const principal = ctx.state.principal;
    if (principal.kind !== 'customer') throw forbidden(ORDER_MSG.orderNotFound);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await orders.listForCustomer(principal.id);
  });

  /** A paid digital copy: the full-resolution original with a proper file name (D8). */
  router.get('/downloads/:token', async (ctx) => {
    const link = downloads.verify(String(ctx.params.token ?? ''));
    if (!link) throw forbidden(ORDER_MSG.downloadInvalid, 'DOWNLOAD_LINK_INVALID');
    const order = await orders.get(link.orderId).catch(() => null);
    const item = order?.items.find((candidate) => candidate.id === link.itemId);
    if (!order || !item || !isDigitalProduct(item.productType, item.productName)) throw forbidden(ORDER_MSG.downloadInvalid, 'DOWNLOAD_LINK_INVALID');
    if (order.paymentStatus !== 'completed' || order.orderStatus === 'cancelled') throw forbidden(ORDER_MSG.downloadNotReady, 'ORDER_NOT_PAID');
    // An erased photo is gone for good (its line keeps only text); a do-not-publish one is never delivered.
    const photo = item.photoId === null ? undefined : await orders.photoForDownload(item.photoId);
    if (!photo) throw notFound(ORDER_MSG.downloadInvalid);
    if (photo.doNotPublish) throw forbidden(STUDENT_MSG.photoNotAvailable, 'PHOTO_NOT_AVAILABLE');
    const original = await deps.media.openOriginal(photo);
    if (!original) throw notFound(ORDER_MSG.downloadInvalid);
    const name = downloadName(order.school.name, item.photoOriginalName ?? photo.filename, photo.filename);
    ctx.set('Content-Disposition', `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = photo.mimeType;
    ctx.length = original.size;
    ctx.body = original.stream;
  });

  return router;
}

/** "Demo Primary School - IMG_0423.JPG", with the stored extension when the original had none. */
function downloadName(school: string, original: string, stored: string): string {
  const ext = stored.slice(stored.lastIndexOf('.'));
  const base = /\.[A-Za-z0-9]{2,4}$/.test(original) ? original : `${original}${ext}`;
  return `${school} - ${base}`.replace(/[/\\:*?<>|]/g, '-').slice(0, 180);
}
