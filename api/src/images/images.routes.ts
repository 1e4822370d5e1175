import Router from '@koa/router';
import { MSG } from '../../contract/messages';
import { thumbnailQuerySchema } from '../../contract/photos';
import { parse } from '../http/validate';
import type { AppContext, AppState } from '../http/context';
import { sendFile } from '../http/send-file';
import { pathId } from '../photos/path-id';
import type { Deps } from '../deps';
import type { Services } from '../services';

/** Watermarked renditions and example images (docs/images.md, "Serving images"). */
export function createImageRoutes(deps: Deps, services: Services) {
  const service = services.images;
  const router = new Router<AppState, AppContext>();
  const photoId = (ctx: AppContext) => pathId(ctx.params.id, MSG.photoNotFound);
  /** A signed-in customer still sees the photos of their own orders in an archived class (docs/access.md, "Archived classes"). */
  const customerOf = (ctx: AppContext): number | null => (ctx.state.principal.kind === 'customer' ? ctx.state.principal.id : null);

  /** `?size=small` (phones) or a `Save-Data: on` request asks for the small thumbnail. */
  router.get('/images/:id/thumbnail', async (ctx) => {
    const { size } = parse(thumbnailQuerySchema, ctx.query);
    const id = photoId(ctx);
    const small = size === 'small' || ctx.get('Save-Data').trim().toLowerCase() === 'on';
    await sendFile(ctx, await service.thumbnail(id, await deps.access.viewer(ctx), small, customerOf(ctx)));
  });

  router.get('/images/:id/watermarked', async (ctx) => {
    const id = photoId(ctx);
    await sendFile(ctx, await service.preview(id, await deps.access.viewer(ctx), customerOf(ctx)));
  });

  router.get('/example-images/:file', async (ctx) => {
    await sendFile(ctx, service.example(ctx.params.file ?? ''));
  });

  return router;
}
