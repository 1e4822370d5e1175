import Router from '@koa/router';
import { albumCreateSchema, albumUpdateSchema, albumVerifySchema } from '../../contract/albums';
import { CATALOGUE_ROUTE_MSG, MSG, REVIEW_MSG } from '../../contract/messages';
import type { PublishResponse } from '../../contract/albums';
import { id } from '../../contract/fields';
import type { AppContext, AppState } from '../http/context';
import { clientIp } from '../http/context';
import { parse } from '../http/validate';
import { sameOriginOnly } from '../http/same-origin';
import { requireAdmin, requireStaff, staffActor } from '../http/auth';
import type { Deps } from '../deps';
import type { Services } from '../services';
import { presentAlbum } from './albums.presenter';
import { presentReviewSheet } from './review.presenter';

const albumId = id(CATALOGUE_ROUTE_MSG.classIdInvalid);

export function createAlbumRoutes(deps: Deps, services: Services) {
  const service = services.albums;
  const router = new Router<AppState, AppContext>();
  const sameOrigin = sameOriginOnly(deps.config.publicUrl);

  router.post('/albums', requireStaff, async (ctx) => {
    const input = parse(albumCreateSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = presentAlbum(await service.create(input));
  });

  router.patch('/albums/:id', requireStaff, async (ctx) => {
    const target = parse(albumId, ctx.params.id);
    const input = parse(albumUpdateSchema, ctx.request.body);
    ctx.body = presentAlbum(await service.update(target, input));
  });

  /** Staff: per child, what families will see once the class is published (docs/access.md, "The review sheet"). */
  router.get('/albums/:id/review', requireStaff, async (ctx) => {
    ctx.body = presentReviewSheet(await services.review.sheet(parse(albumId, ctx.params.id)));
    ctx.set('Cache-Control', 'private, no-store');
  });

  /** "Publish class" and "Release N new photos": published, and every photo waiting for review released. */
  router.post('/albums/:id/publish', requireStaff, async (ctx) => {
    const { album, released } = await service.publish(parse(albumId, ctx.params.id));
    const body: PublishResponse = {
      album: presentAlbum(album),
      released,
      visible: album.releasedCount,
      message: REVIEW_MSG.publishedText(album.name, album.releasedCount),
    };
    ctx.body = body;
  });

  /** Admins only (docs/accounts.md, "What a photographer may not do"). */
  router.delete('/albums/:id', requireAdmin, async (ctx) => {
    await service.delete(parse(albumId, ctx.params.id), staffActor(ctx));
    ctx.body = { message: CATALOGUE_ROUTE_MSG.classDeleted };
  });

  /** The client reads `success`, so a wrong password is a 200 with success false. */
  router.post('/albums/:id/verify-password', sameOrigin, async (ctx) => {
    const target = parse(albumId, ctx.params.id);
    const { password } = parse(albumVerifySchema, ctx.request.body);
    const viewer = await deps.access.viewer(ctx);
    const { album, grantEpoch } = await service.unlock(target, password, clientIp(ctx), viewer);
    if (grantEpoch !== null) {
      deps.access.grantAlbum(ctx, album.id, grantEpoch);
      // docs/reports.md, "Families who opened the gallery": the grant now holds this class.
      await services.galleryVisits.classSeen({ ...viewer, grant: { ...viewer.grant, albums: [...viewer.grant.albums, album.id] } }, deps.access.held(ctx), album.id);
      ctx.body = { success: true };
    } else {
      ctx.body = { success: false, message: MSG.incorrectClassPassword };
    }
  });

  return router;
}
