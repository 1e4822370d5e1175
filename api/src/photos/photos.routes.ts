import Router from '@koa/router';
import { z } from 'zod';
import { UPLOAD_BATCH_SIZE, UPLOAD_MAX_FILE_BYTES, UPLOAD_PARTIAL_STATUS } from '../../contract/constants';
import { id } from '../../contract/fields';
import { CATALOGUE_ROUTE_MSG, HARDENING_MSG, KEEP_PAID_MSG, MATCHING_MSG, MSG } from '../../contract/messages';
import { uploadCaptureSchema } from '../../contract/matching';
import { AppError, badRequest } from '../http/errors';
import { bulkDeleteSchema, cleanupMissingSchema, stillVisibleSchema, trayPhotosSchema, type StillVisibleResponse } from '../../contract/photos';
import type { AppContext, AppState } from '../http/context';
import { requireAdmin, requireStaff, staffActor } from '../http/auth';
import { readMultipart, type MultipartBody } from '../http/multipart';
import { parse } from '../http/validate';
import type { Deps } from '../deps';
import type { Services } from '../services';
import { createUploadPipeline } from '../media/upload-pipeline';
import { pathId } from './path-id';
import { presentTray } from '../matching/matching.presenter';

/** The `capture` form field is JSON text; anything unreadable is the same clear 400. */
function readJsonField(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest(MATCHING_MSG.badCapture, { capture: MATCHING_MSG.badCapture }, 'BAD_CAPTURE');
  }
}

/** A class belongs to a school, so the upload form picks both; a missing class means neither was chosen. */
export const SELECT_CLASS_FIRST = CATALOGUE_ROUTE_MSG.selectClassFirst;
const uploadFieldsSchema = z.object({ albumId: id(SELECT_CLASS_FIRST) }, { error: SELECT_CLASS_FIRST });
/** A restore names the class its files belong to: a file is matched within that class only. */
const restoreFieldsSchema = z.object({ albumId: id(KEEP_PAID_MSG.restoreClassRequired) }, { error: KEEP_PAID_MSG.restoreClassRequired });

/**
 * One request carries at most one batch: the PWA sends UPLOAD_BATCH_SIZE (10) photos at a time, so a
 * request holds at most 10 files of 10 MB plus the form around them. A larger request is refused
 * by its declared size before it is read, or as soon as it grows past that while streaming.
 */
export const UPLOAD_MAX_REQUEST_BYTES = UPLOAD_BATCH_SIZE * UPLOAD_MAX_FILE_BYTES + 1024 * 1024;
const UPLOAD_LIMITS = {
  maxFiles: UPLOAD_BATCH_SIZE,
  maxFileBytes: UPLOAD_MAX_FILE_BYTES,
  maxRequestBytes: UPLOAD_MAX_REQUEST_BYTES,
  maxFields: 20,
  tooLargeMessage: HARDENING_MSG.uploadTooLarge,
  tooManyFilesMessage: HARDENING_MSG.tooManyFilesPerRequest,
};

export function createPhotoRoutes(deps: Deps, services: Services) {
  const service = services.photos;
  const matching = services.matching;
  const router = new Router<AppState, AppContext>();

  /** Temp files are removed whatever happens; ingested ones were already moved out. */
  async function withUpload<T>(ctx: AppContext, use: (body: MultipartBody) => Promise<T>): Promise<T> {
    const body = await readMultipart(ctx, deps.media.tmpDir, { ...UPLOAD_LIMITS, bodyTimeoutMs: deps.config.requestBodyTimeoutMs });
    try {
      return await use(body);
    } finally {
      await body.cleanup();
    }
  }

  /** A family holding a child's code gets exactly that child's photos and the class's group photos. */
  router.get('/albums/:id/photos', async (ctx) => {
    const target = pathId(ctx.params.id, MSG.classNotFound);
    const viewer = await deps.access.viewer(ctx);
    const photos = await service.listForViewer(target, viewer);
    // docs/reports.md, "Families who opened the gallery": written once per visitor, class and day.
    await services.galleryVisits.classSeen(viewer, deps.access.held(ctx), target);
    ctx.body = photos;
  });

  /** Staff: the photos no rule could match, with the card photos around them. */
  router.get('/albums/:id/tray', requireStaff, async (ctx) => {
    ctx.body = presentTray(await service.tray(pathId(ctx.params.id, MSG.classNotFound), matching));
  });

  router.post('/photos/upload-batch', requireStaff, async (ctx) => {
    // Whether to keep a grey copy of each decode for the card scan, learnt from the form's first
    // field (the class) while its photos still stream in; until it is known, they are scanned.
    let scansCards: boolean | null = null;
    const pipeline = createUploadPipeline(deps.media, undefined, { cardScan: () => scansCards ?? true });
    let body: MultipartBody | undefined;
    try {
      body = await readMultipart(ctx, deps.media.tmpDir, {
        ...UPLOAD_LIMITS,
        bodyTimeoutMs: deps.config.requestBodyTimeoutMs,
        onField: (name, value) => {
          if (name === 'albumId') matching.scansCards(value).then((scan) => (scansCards ??= scan), () => (scansCards = true));
        },
        onFile: (field, file) => {
          if (field === 'photos') void pipeline.add(file);
        },
      });
      const { albumId } = parse(uploadFieldsSchema, body.fields);
      const capture = body.fields.capture === undefined ? null : parse(uploadCaptureSchema, readJsonField(body.fields.capture));
      const result = await service.uploadBatch(albumId, body.files.photos ?? [], pipeline.prepared, { capture, matching });
      ctx.body = result;
      // 207: the good files were stored, the refused ones are named in `rejected`.
      ctx.status = result.rejected.length > 0 ? UPLOAD_PARTIAL_STATUS : 201;
      deps.metrics.upload(result.rejected.length > 0 ? 'partial' : 'stored');
    } catch (err) {
      // The client's fault (a bad form, every file refused) or ours (storage, database).
      deps.metrics.upload(err instanceof AppError && err.status < 500 ? 'refused' : 'failed');
      throw err;
    } finally {
      // Decodes still running read the temp uploads: let them settle before the folder goes.
      await pipeline.discard();
      await body?.cleanup();
    }
  });

  /** Staff put photos back in the unmatched tray: hidden from families until placed again. */
  router.put('/photos/tray', requireStaff, async (ctx) => {
    const { photoIds, confirm } = parse(trayPhotosSchema, ctx.request.body);
    ctx.body = await service.toTray(photoIds, confirm === true);
  });

  /** Staff: "This is a card photo" (a card the scan could not read); the photos after it wait in the tray. */
  router.put('/photos/card', requireStaff, async (ctx) => {
    const { photoIds, confirm } = parse(trayPhotosSchema, ctx.request.body);
    ctx.body = await matching.markCards(photoIds, confirm === true);
  });

  /** Admins only (docs/accounts.md, "What a photographer may not do"). */
  router.delete('/photos/bulk-delete', requireAdmin, async (ctx) => {
    const { photoIds } = parse(bulkDeleteSchema, ctx.request.body);
    ctx.body = await service.bulkDelete(photoIds, staffActor(ctx));
  });

  /**
   * The service worker's check at an online visit: which kept images may stay (docs/access.md,
   * "Images kept on the device"). Here rather than with the image routes, which run before the
   * body parser.
   */
  router.post('/images/still-visible', async (ctx) => {
    const { photoIds } = parse(stillVisibleSchema, ctx.request.body);
    const body: StillVisibleResponse = { photoIds: await services.images.stillVisible(photoIds, await deps.access.viewer(ctx)) };
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = body;
  });

  router.get('/photos/missing', requireStaff, async (ctx) => {
    ctx.body = await service.missingReport();
  });

  router.delete('/photos/cleanup-missing', requireStaff, async (ctx) => {
    parse(cleanupMissingSchema, ctx.request.body);
    ctx.body = await service.cleanupMissing();
  });

  router.post('/photos/restore', requireStaff, async (ctx) => {
    ctx.body = await withUpload(ctx, ({ fields, files }) => service.restore(parse(restoreFieldsSchema, fields).albumId, files.photos ?? []));
  });

  return router;
}
