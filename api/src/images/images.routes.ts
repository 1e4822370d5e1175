import Router from '@koa/router';
import { MSG } from '../../contract/messages';
import { thumbnailQuerySchema } from '../../contract/photos';
import { parse } from '../http/validate';
import type { AppContext, AppState } from '../http/context';
import { pathId } from '../photos/path-id';
import type { Deps } from '../deps';
import { createPhotoService, photoRef } from '../photos/photos.service';
import type { PhotoWithAlbum } from '../photos/photos.repository';
import { createVisibility, photoVisible } from '../students/visibility';
import { createStudentRepository } from '../students/students.repository';
import { notFound } from '../http/errors';

export function createImageRoutes(deps: Deps) {
  const photos = createPhotoService(deps);
  const visibility = createVisibility(createStudentRepository(deps.knex));
  const router = new Router<AppState, AppContext>();

  /**
   * Access is decided before the disk is touched, so a locked class reveals nothing; a photo the
   * viewer's grant does not cover answers as if it did not exist.
   */
  async function visiblePhoto(ctx: AppContext): Promise<PhotoWithAlbum> {
    const found = await photos.getPhoto(pathId(ctx.params.id, MSG.photoNotFound));
    const access = await visibility.requireClass(deps.access.viewer(ctx), found.album);
    if (!photoVisible(access, photoRef(found.photo))) throw notFound(MSG.photoNotFound);
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
    const { photo } = await visiblePhoto(ctx);
    const wantsSmall = size === 'small' || ctx.get('Save-Data').trim().toLowerCase() === 'on';
    const files = { storageKey: photo.storage_key, mimeType: photo.mime_type };
    if (wantsSmall && photo.small_thumb_etag) {
      await deps.media.sendRendition(ctx, { ...files, etag: photo.small_thumb_etag }, 'small-thumbnail');
    } else {
      await deps.media.sendRendition(ctx, { ...files, etag: photo.thumb_etag }, 'thumbnail');
    }
  });

  router.get('/images/:id/watermarked', async (ctx) => {
    const { photo } = await visiblePhoto(ctx);
    await deps.media.sendRendition(ctx, { storageKey: photo.storage_key, mimeType: photo.mime_type, etag: photo.preview_etag }, 'preview');
  });

  router.get('/example-images/:file', async (ctx) => {
    await deps.media.sendExampleImage(ctx, ctx.params.file ?? '');
  });

  return router;
}
