import { constants as zlibConstants } from 'node:zlib';
import compress from 'koa-compress';
import type { Middleware } from './context';

/**
 * Answers worth compressing, by content type: JSON, text, scripts, styles, SVG, HTML. Images are
 * already compressed, and an event stream or a ZIP download must flow as it is written.
 */
const COMPRESSIBLE = /^(application\/(json|javascript|manifest\+json|problem\+json)|text\/(?!event-stream)|image\/svg\+xml)/i;

/** Paths never compressed whatever their type: images, and the gateway's plain-text notify. */
const NEVER = /^\/api\/(images|example-images)\/|^\/api\/payment\/notify$/;

/**
 * On-the-fly compression (koa-compress) of API answers above 1 KB: brotli at a quality that costs
 * little CPU, else gzip, only for a client that asked. Files that were precompressed at build
 * time opt out (static-app sets ctx.compress = false), so nothing is compressed twice.
 */
export function compression(): Middleware {
  const middleware = compress({
    threshold: 1024,
    filter: (type: string) => COMPRESSIBLE.test(type),
    // A 256 KB window instead of brotli's default 4 MB: API answers are far smaller, and setting up
    // the larger window for every answer cost more than compressing a checkout's JSON.
    br: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_LGWIN]: 18 } },
    gzip: { level: 6 },
    deflate: false,
    zstd: false,
    encodingPreference: ['br', 'gzip', 'identity'],
  });
  return async (ctx, next) => {
    if (NEVER.test(ctx.path)) ctx.compress = false;
    await middleware(ctx, next);
  };
}
