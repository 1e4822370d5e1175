import { MSG } from '../../contract/messages';
import { forbidden } from './errors';
import type { Middleware } from './context';

/**
 * The unlock and forget posts change which children a browser holds, so only the shop's own pages
 * may send them (docs/access.md, "Grants end"): a request whose Origin is another site (or "null")
 * is 403 `CROSS_SITE`, and so is one a browser marks `Sec-Fetch-Site: cross-site`. A request with
 * neither header is not from a browser page and passes (the cookie is a browser's; others hold none).
 */
export function sameOriginOnly(publicUrl: string): Middleware {
  const shop = new URL(publicUrl).origin;
  return async (ctx, next) => {
    const origin = ctx.get('Origin');
    // The request's own origin (scheme and host as Koa reads them), for a shop reached by another name.
    const own = `${ctx.protocol}://${ctx.host}`;
    const foreign = origin ? origin !== shop && origin !== own : ctx.get('Sec-Fetch-Site') === 'cross-site';
    if (foreign) throw forbidden(MSG.crossSiteUnlock, 'CROSS_SITE');
    return next();
  };
}

/**
 * Stricter: only a page of the shop itself may send it. A browser sends `Origin` with every POST,
 * so one without it (a mail scanner, a link preview, a script elsewhere) is refused too: 403
 * `CROSS_SITE` with `message` (docs/outreach.md, "Double opt-in": consent is a person's press of a
 * button on the shop's page).
 */
export function ownPagesOnly(publicUrl: string, message: string): Middleware {
  const shop = new URL(publicUrl).origin;
  return async (ctx, next) => {
    const origin = ctx.get('Origin');
    const own = `${ctx.protocol}://${ctx.host}`;
    if (!origin || (origin !== shop && origin !== own) || ctx.get('Sec-Fetch-Site') === 'cross-site') throw forbidden(message, 'CROSS_SITE');
    return next();
  };
}
