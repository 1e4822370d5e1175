import Router from '@koa/router';
import { z } from 'zod';
import { UPLOAD_MAX_FILE_BYTES, UPLOAD_MAX_FILES } from '../../contract/constants';
import { id } from '../../contract/fields';
import { MSG } from '../../contract/messages';
import { bulkDeleteSchema, cleanupMissingSchema } from '../../contract/photos';
import type { AppContext, AppState } from '../http/context';
import { requireStaff } from '../http/auth';
import { readMultipart, type MultipartBody } from '../http/multipart';
import { parse } from '../http/validate';
import type { Deps } from '../deps';
import { createPhotoService } from './photos.service';
import { createUploadPipeline } from '../media/upload-pipeline';
import { pathId } from './path-id';

/** A class belongs to a school, so the upload form picks both; a missing class means neither was chosen. */
export const SELECT_CLASS_FIRST = 'Please select a school and class first';
const uploadFieldsSchema = z.object({ albumId: id(SELECT_CLASS_FIRST) }, { error: SELECT_CLASS_FIRST });

/**
 * Up to 500 files of 10 MB each per request (spec section 9), but at most 1 GiB of temp disk per
 * request: the PWA sends batches of 10, and a larger request is better split than allowed to fill
 * the disk.
 */
const UPLOAD_LIMITS = {
  maxFiles: UPLOAD_MAX_FILES,
  maxFileBytes: UPLOAD_MAX_FILE_BYTES,
  maxTotalBytes: 1024 * 1024 * 1024,
  maxFields: 20,
};

export function createPhotoRoutes(deps: Deps) {
  const service = createPhotoService(deps);
  const router = new Router<AppState, AppContext>();

  /** Temp files are removed whatever happens; ingested ones were already moved out. */
  async function withUpload<T>(ctx: AppContext, use: (body: MultipartBody) => Promise<T>): Promise<T> {
    const body = await readMultipart(ctx, deps.media.tmpDir, UPLOAD_LIMITS);
    try {
      return await use(body);
    } finally {
      await body.cleanup();
    }
  }

  router.get('/albums/:id/photos', async (ctx) => {
    const album = await service.getAlbum(pathId(ctx.params.id, MSG.classNotFound));
    deps.access.assertAlbum(ctx, album);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = await service.listAlbumPhotos(album.id);
  });

  router.post('/photos/upload-batch', requireStaff, async (ctx) => {
    const pipeline = createUploadPipeline(deps.media);
    let body: MultipartBody | undefined;
    try {
      body = await readMultipart(ctx, deps.media.tmpDir, {
        ...UPLOAD_LIMITS,
        onFile: (field, file) => {
          if (field === 'photos') void pipeline.add(file);
        },
      });
      const { albumId } = parse(uploadFieldsSchema, body.fields);
      ctx.body = await service.uploadBatch(albumId, body.files.photos ?? [], pipeline.prepared);
      ctx.status = 201;
    } finally {
      // Decodes still running read the temp uploads: let them settle before the folder goes.
      await pipeline.discard();
      await body?.cleanup();
    }
  });

  router.delete('/photos/bulk-delete', requireStaff, async (ctx) => {
    const { photoIds } = parse(bulkDeleteSchema, ctx.request.body);
    ctx.body = await service.bulkDelete(photoIds);
  });

  router.get('/photos/missing', requireStaff, async (ctx) => {
    ctx.body = await service.missingReport();
  });

  router.delete('/photos/cleanup-missing', requireStaff, async (ctx) => {
    parse(cleanupMissingSchema, ctx.request.body);
    ctx.body = await service.cleanupMissing();
  });

  router.post('/photos/restore', requireStaff, async (ctx) => {
    ctx.body = await withUpload(ctx, ({ files }) => service.restore(files.photos ?? []));
  });

  return router;
}
