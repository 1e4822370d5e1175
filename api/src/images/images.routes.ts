import Router from '@koa/router';
import { MSG } from '../../contract/messages';
import type { AppContext, AppState } from '../http/context';
import { pathId } from '../photos/path-id';
import type { Deps } from '../deps';
import type { RenditionKind } from '../media/media.types';
import { createPhotoService } from '../photos/photos.service';

export function createImageRoutes(deps: Deps) {
  const photos = createPhotoService(deps);
  const router = new Router<AppState, AppContext>();

  /** Both renditions carry the watermark (D3); originals are never served here. */
  const sendRendition = (kind: RenditionKind) => async (ctx: AppContext) => {
    const { photo, album } = await photos.getPhoto(pathId(ctx.params.id, MSG.photoNotFound));
    // Access is decided before the disk is touched, so a locked class reveals nothing (D3).
    deps.access.assertAlbum(ctx, album);
    const etag = kind === 'thumbnail' ? photo.thumb_etag : photo.preview_etag;
    await deps.media.sendRendition(ctx, { storageKey: photo.storage_key, mimeType: photo.mime_type, etag }, kind);
  };

  router.get('/images/:id/thumbnail', sendRendition('thumbnail'));
  router.get('/images/:id/watermarked', sendRendition('preview'));

  router.get('/example-images/:file', async (ctx) => {
    await deps.media.sendExampleImage(ctx, ctx.params.file ?? '');
  });

  return router;
}
