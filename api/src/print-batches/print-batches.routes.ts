import Router from '@koa/router';
import { PRINT_BATCH_MSG, PRINT_BATCH_ROUTE_MSG } from '../../contract/messages';
import { id } from '../../contract/fields';
import { printBatchCreateSchema, printBatchFileName, printBatchLinkRequestSchema, printBatchStatusSchema, type PrintBatchFile } from '../../contract/print-batches';
import type { AppContext, AppState, Middleware } from '../http/context';
import { parse } from '../http/validate';
import { requireStaff } from '../http/auth';
import { forbidden } from '../http/errors';
import type { Deps } from '../deps';
import type { Services } from '../services';
import { createPrintBatchLinks } from './download-links';
import { presentPrintBatch, presentPrintBatchDetail, presentReadiness } from './print-batches.presenter';
import type { BatchFiles } from './print-batches.service';

const batchId = id(PRINT_BATCH_ROUTE_MSG.batchIdInvalid);
const schoolFilter = id(PRINT_BATCH_ROUTE_MSG.schoolFilterInvalid);

export function createPrintBatchRoutes(deps: Deps, services: Services) {
  const service = services.printBatches;
  const links = createPrintBatchLinks(deps.config.jwtSecret);
  const router = new Router<AppState, AppContext>();

  /**
   * Staff with their bearer token, or a browser's download manager holding a signed link for
   * exactly this file of this batch. Without either: 401, with a customer token: 403.
   */
  const staffOrLink =
    (file: PrintBatchFile): Middleware =>
    async (ctx, next) => {
      const token = typeof ctx.query.token === 'string' ? ctx.query.token : null;
      if (token === null) return requireStaff(ctx, next);
      const claims = links.verify(token, parse(batchId, ctx.params.id), file);
      if (!claims || !(await service.linkHolderValid(claims))) throw forbidden(PRINT_BATCH_MSG.linkInvalid, 'PRINT_BATCH_LINK_INVALID');
      return next();
    };

  /** The batch is found and its contents read before a byte is sent: a 404 is still possible. */
  const loadFiles = (ctx: AppContext): Promise<BatchFiles> => service.files(parse(batchId, ctx.params.id));

  const fileName = (files: BatchFiles, file: PrintBatchFile) => printBatchFileName(files.batch.id, files.batch.schoolName, file);

  router.get('/print-batches/ready', requireStaff, async (ctx) => {
    ctx.body = (await service.readiness()).map(presentReadiness);
  });

  router.get('/print-batches', requireStaff, async (ctx) => {
    const school = typeof ctx.query.school === 'string' && ctx.query.school !== '' && ctx.query.school !== 'all' ? parse(schoolFilter, ctx.query.school) : undefined;
    ctx.body = (await service.list({ schoolId: school })).map(presentPrintBatch);
  });

  router.post('/print-batches', requireStaff, async (ctx) => {
    const { schoolId } = parse(printBatchCreateSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = presentPrintBatch(await service.create(schoolId));
  });

  router.get('/print-batches/:id', requireStaff, async (ctx) => {
    const { batch, plan } = await service.files(parse(batchId, ctx.params.id));
    ctx.body = presentPrintBatchDetail(batch, plan);
  });

  router.put('/print-batches/:id', requireStaff, async (ctx) => {
    const target = parse(batchId, ctx.params.id);
    const { status } = parse(printBatchStatusSchema, ctx.request.body);
    ctx.body = presentPrintBatch(await service.setStatus(target, status));
  });

  router.post('/print-batches/:id/links', requireStaff, async (ctx) => {
    const target = parse(batchId, ctx.params.id);
    const { file } = parse(printBatchLinkRequestSchema, ctx.request.body);
    await service.get(target);
    const principal = ctx.state.principal;
    if (principal.kind !== 'staff') throw forbidden(PRINT_BATCH_MSG.linkInvalid);
    ctx.status = 201;
    ctx.body = links.issue(target, file, principal.id);
  });

  router.get('/print-batches/:id/files.zip', staffOrLink('files.zip'), async (ctx) => {
    const files = await loadFiles(ctx);
    ctx.attachment(fileName(files, 'files.zip'));
    ctx.type = 'application/zip';
    ctx.body = service.zip(files);
  });

  /** A PDF of the batch, made whole before a byte is sent. */
  const pdfRoute =
    (file: 'packing-list.pdf' | 'labels.pdf', render: (files: BatchFiles) => Promise<Buffer>): Middleware =>
    async (ctx) => {
      const files = await loadFiles(ctx);
      const pdf = await render(files);
      ctx.attachment(fileName(files, file));
      ctx.type = 'application/pdf';
      ctx.body = pdf;
    };

  router.get('/print-batches/:id/packing-list.pdf', staffOrLink('packing-list.pdf'), pdfRoute('packing-list.pdf', service.packingList));
  router.get('/print-batches/:id/labels.pdf', staffOrLink('labels.pdf'), pdfRoute('labels.pdf', service.labels));

  return router;
}
