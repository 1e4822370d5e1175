import Router from '@koa/router';
import { priceListInputSchema, type PriceList, type PriceListInput } from '../../contract/price-lists';
import { UPLOAD_MAX_FILE_BYTES } from '../../contract/constants';
import { id } from '../../contract/fields';
import { CATALOGUE_ROUTE_MSG } from '../../contract/messages';
import type { AppContext, AppState } from '../http/context';
import { parse } from '../http/validate';
import { requireStaff } from '../http/auth';
import { readMultipart, type UploadedFile } from '../http/multipart';
import type { Deps } from '../deps';
import type { Services } from '../services';
import { readPriceListForm } from './price-lists.form';

const priceListId = id(CATALOGUE_ROUTE_MSG.priceListIdInvalid);
const schoolId = id(CATALOGUE_ROUTE_MSG.schoolIdInvalid);

/** An editor form: a few dozen products, each with at most one example image. */
const FORM_LIMITS = { maxFiles: 100, maxFileBytes: UPLOAD_MAX_FILE_BYTES, maxRequestBytes: 200 * 1024 * 1024, maxFields: 1000 };

export function createPriceListRoutes(deps: Deps, services: Services) {
  const service = services.priceLists;
  const router = new Router<AppState, AppContext>();

  /** The staff editor sends multipart; JSON ({name, description, products: [...]}) is accepted for tools. */
  async function withInput(ctx: AppContext, save: (input: PriceListInput, uploads: Map<number, UploadedFile>) => Promise<PriceList>) {
    if (ctx.is('application/json')) return save(parse(priceListInputSchema, ctx.request.body), new Map());
    const form = await readMultipart(ctx, deps.media.tmpDir, { ...FORM_LIMITS, bodyTimeoutMs: deps.config.requestBodyTimeoutMs });
    try {
      const { body, images } = readPriceListForm(form.fields, form.files);
      return await save(parse(priceListInputSchema, body), images);
    } finally {
      await form.cleanup();
    }
  }

  router.get('/price-lists', requireStaff, async (ctx) => {
    ctx.body = await service.list();
  });

  router.get('/price-lists/:id', async (ctx) => {
    ctx.body = await service.get(parse(priceListId, ctx.params.id));
  });

  router.get('/schools/:id/price-lists', async (ctx) => {
    ctx.body = await service.forSchool(parse(schoolId, ctx.params.id));
  });

  router.post('/price-lists', requireStaff, async (ctx) => {
    const created = await withInput(ctx, (input, uploads) => service.create(input, uploads));
    ctx.status = 201;
    ctx.body = created;
  });

  router.put('/price-lists/:id', requireStaff, async (ctx) => {
    const target = parse(priceListId, ctx.params.id);
    ctx.body = await withInput(ctx, (input, uploads) => service.update(target, input, uploads));
  });

  router.delete('/price-lists/:id', requireStaff, async (ctx) => {
    await service.delete(parse(priceListId, ctx.params.id));
    ctx.body = { message: CATALOGUE_ROUTE_MSG.priceListDeleted };
  });

  return router;
}
