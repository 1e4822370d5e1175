import Router from '@koa/router';
import { SHORT_LINK_MSG } from '../../contract/short-links';
import type { AppContext, AppState } from '../http/context';
import type { Deps } from '../deps';
import type { Services } from '../services';
import { escapeHtml } from '../lib/escape';

/**
 * `GET /s/{token}`: a short link from an SMS (docs/sms.md, "Short links"). 302 to its page on
 * PUBLIC_URL; unknown or expired, a small page with a 404 that points to the shop. Nothing is
 * cached: a link may expire, and its target may carry a token.
 */
export function createShortLinkRoutes(deps: Deps, services: Services) {
  const router = new Router<AppState, AppContext>();
  router.get('/s/:token', async (ctx) => {
    const target = await services.shortLinks.resolve(ctx.params.token ?? '');
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    if (target) {
      ctx.status = 302;
      ctx.redirect(target);
      return;
    }
    ctx.status = 404;
    ctx.type = 'text/html; charset=utf-8';
    const name = escapeHtml(deps.config.businessName);
    ctx.body =
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
      `<title>${escapeHtml(SHORT_LINK_MSG.notFoundTitle)} - ${name}</title></head>` +
      `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;line-height:1.5">` +
      `<h1 style="font-size:1.4rem">${escapeHtml(SHORT_LINK_MSG.notFoundTitle)}</h1><p>${escapeHtml(SHORT_LINK_MSG.notFoundBody)}</p>` +
      `<p><a href="/">${escapeHtml(SHORT_LINK_MSG.openShop)}</a></p><p style="color:#555">${name}</p></body></html>`;
  });
  return router;
}
