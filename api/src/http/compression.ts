import { Stream } from 'node:stream';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import compress from 'koa-compress';
import type { AppContext, Middleware } from './context';

/**
 * Answers worth compressing, by content type: JSON, text, scripts, styles, SVG, HTML. Images are
 * already compressed, and an event stream or a ZIP download must flow as it is written.
 */
const COMPRESSIBLE = /^(application\/(json|javascript|manifest\+json|problem\+json)|text\/(?!event-stream)|image\/svg\+xml)/i;

/** Paths never compressed whatever their type: images, and the gateway's plain-text notify. */
const NEVER = /^\/api\/(images|example-images)\/|^\/api\/payment\/notify$/;

/** Answers smaller than this are sent as they are: compressing them saves too little. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Answers held in memory up to this size are compressed at once, in the request's own turn
 * (docs/operations.md, "Compressing answers"); larger ones and streams are compressed as they flow.
 */
export const COMPRESS_AT_ONCE_MAX_BYTES = 64 * 1024;

/**
 * brotli at a quality that costs little CPU, with a 256 KB window instead of brotli's default
 * 4 MB: API answers are far smaller, and setting up the larger window for every answer cost more
 * than compressing a checkout's JSON.
 */
const BROTLI_PARAMS = { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_LGWIN]: 18 };
const GZIP_LEVEL = 6;

/** Statuses that carry no body, and partial content, whose ranges count the bytes as they are. */
const NOT_COMPRESSED_STATUSES = new Set([204, 205, 206, 304]);

/**
 * On-the-fly compression of answers above COMPRESS_THRESHOLD_BYTES, only for a client that asked:
 * brotli if it accepts brotli, else gzip (docs/operations.md, "Compressing answers"). Files that
 * were precompressed at build time opt out (static-app sets ctx.compress = false), so nothing is
 * compressed twice.
 *
 * koa-compress negotiates and compresses what flows as a stream or is too large to compress at
 * once. An answer held in memory (JSON, text, a rendered page) up to COMPRESS_AT_ONCE_MAX_BYTES is
 * compressed here first, in one synchronous call, and sent with its Content-Length: through a
 * compression stream a checkout's 1-3 KB answer cost four to five times the CPU of compressing it
 * at once, most of it on the one thread every request shares. koa-compress then leaves it, as it leaves every answer
 * that is already encoded, and still adds `Vary: Accept-Encoding` to all of them.
 */
export function compression(): Middleware {
  const streaming = compress({
    threshold: COMPRESS_THRESHOLD_BYTES,
    filter: (type: string) => COMPRESSIBLE.test(type),
    br: { params: BROTLI_PARAMS },
    gzip: { level: GZIP_LEVEL },
    deflate: false,
    zstd: false,
    encodingPreference: ['br', 'gzip', 'identity'],
  });
  const atOnce: Middleware = async (ctx, next) => {
    await next();
    compressAtOnce(ctx);
  };
  return async (ctx, next) => {
    if (NEVER.test(ctx.path)) ctx.compress = false;
    await streaming(ctx, () => atOnce(ctx, next));
  };
}

/**
 * The in-memory answer as bytes, or null when it is not held in memory or is plainly too large to
 * compress at once. A JSON body is serialised here, once: Koa and koa-compress then get the text.
 */
function bytesOf(ctx: AppContext): Buffer | null {
  const body: unknown = ctx.body;
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return body.length > COMPRESS_AT_ONCE_MAX_BYTES ? null : Buffer.from(body);
  if (body === null || typeof body !== 'object' || body instanceof Stream || body instanceof Blob || body instanceof ReadableStream || body instanceof Response) {
    return null;
  }
  const text = JSON.stringify(body);
  ctx.body = text;
  return text.length > COMPRESS_AT_ONCE_MAX_BYTES ? null : Buffer.from(text);
}

/** brotli when the client accepts it, else gzip when it accepts that, else nothing. */
function chosenEncoding(ctx: AppContext): 'br' | 'gzip' | null {
  if (!ctx.get('Accept-Encoding')) return null;
  if (ctx.acceptsEncodings('br') === 'br') return 'br';
  if (ctx.acceptsEncodings('gzip') === 'gzip') return 'gzip';
  return null;
}

function compressAtOnce(ctx: AppContext): void {
  if (
    ctx.compress === false ||
    ctx.method === 'HEAD' ||
    ctx.res.headersSent ||
    !ctx.writable ||
    NOT_COMPRESSED_STATUSES.has(ctx.status) ||
    ctx.response.get('Content-Encoding') ||
    ctx.response.get('Content-Range') ||
    /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(ctx.response.get('Cache-Control')) ||
    !(ctx.compress === true || COMPRESSIBLE.test(ctx.response.type))
  ) {
    return;
  }
  const bytes = bytesOf(ctx);
  if (!bytes || bytes.length < COMPRESS_THRESHOLD_BYTES || bytes.length > COMPRESS_AT_ONCE_MAX_BYTES) return;
  const encoding = chosenEncoding(ctx);
  if (!encoding) return;
  const contentType = ctx.response.get('Content-Type');
  ctx.body =
    encoding === 'br'
      ? brotliCompressSync(bytes, { params: { ...BROTLI_PARAMS, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length } })
      : gzipSync(bytes, { level: GZIP_LEVEL });
  // The answer keeps its own type (application/json, text/html), not the bytes' default.
  if (contentType) ctx.set('Content-Type', contentType);
  ctx.set('Content-Encoding', encoding);
}
