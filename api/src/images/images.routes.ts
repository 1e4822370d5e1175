import Router from '@koa/router';
import { MSG } from '../../contract/messages';
import { thumbnailQuerySchema } from '../../contract/photos';
import { parse } from '../http/validate';
import type { AppContext, AppState } from '../http/context';
import { pathId } from '../photos/path-id';
import type { Deps } from '../deps';
import { createVisibility, photoVisible } from '../students/visibility';
import { createStudentRepository } from '../students/students.repository';
import { notFound } from '../http/errors';
import { createImagesRepository, type ImageRecord } from './images.repository';

export function createImageRoutes(deps: Deps) {
  const images = createImagesRepository(deps.knex);
  const visibility = createVisibility(createStudentRepository(deps.knex));
  const router = new Router<AppState, AppContext>();

  /**
   * Access is decided before the disk is touched, so a locked class reveals nothing; a photo the
   * viewer's grant does not cover answers as if it did not exist.
   */
  async function visibleImage(ctx: AppContext): Promise<ImageRecord> {
    const found = await images.find(pathId(ctx.params.id, MSG.photoNotFound));
    if (!found) throw notFound(MSG.photoNotFound);
    const access = await visibility.requireClass(deps.access.viewer(ctx), found.album);
    if (!photoVisible(access, found.photo)) throw notFound(MSG.photoNotFound);
    return found;
  }

  /**
   * The grid's thumbnail: `?size=small` (phones) or a `Save-Data: on` request gets the 320 px
   * rendition. A photo stored before that rendition existed and not yet backfilled gets the full
   * thumbnail instead, which is still right, only larger. Every rendition carries the watermark;
   * originals are never served here.
   */
  router.get('/images/:id/thumbnail', async (ctx) => {
    const { size } = parse(thumbnailQuerySchema, ctx.query);
    const image = await visibleImage(ctx);
    const wantsSmall = size === 'small' || ctx.get('Save-Data').trim().toLowerCase() === 'on';
    const files = { storageKey: image.storageKey, mimeType: image.mimeType };
    if (wantsSmall && image.smallThumbEtag) {
      await deps.media.sendRendition(ctx, { ...files, etag: image.smallThumbEtag }, 'small-thumbnail');
    } else {
      await deps.media.sendRendition(ctx, { ...files, etag: image.thumbEtag }, 'thumbnail');
    }
  });

  router.get('/images/:id/watermarked', async (ctx) => {
    const image = await visibleImage(ctx);
    await deps.media.sendRendition(ctx, { storageKey: image.storageKey, mimeType: image.mimeType, etag: image.previewEtag }, 'preview');
  });

  router.get('/example-images/:file', async (ctx) => {
    await deps.media.sendExampleImage(ctx, ctx.params.file ?? '');
  });

  return router;
}
