import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { send } from '@koa/send';
import { BUSINESS_NAME_PLACEHOLDER, BUSINESS_SHORT_NAME_PLACEHOLDER, businessShortName } from '../../contract/brand';
import {
  GALLERY_PAGE_DATA_ID,
  GRID_FIRST_ROW,
  GRID_SIZES,
  GRID_SMALL_MEDIA,
  GRID_WIDE_MEDIA,
  gridSrcSet,
  smallThumbnailPath,
  type GalleryPageData,
} from '../../contract/gallery-page';
import { MSG, STATIC_MSG } from '../../contract/messages';
import { AppError, notFound } from './errors';
import { escapeHtml } from '../lib/escape';
import type { AppContext, Middleware } from './context';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
/** A page carrying one viewer's gallery data: never kept by any cache. */
const PERSONAL = 'private, no-store';
const GALLERY_PAGE = /^\/school\/([^/]+)\/?$/;
/** The page the client routes start from: the app without any prerendered screen in it. */
const SHELL = 'app-shell.html';
/** Text files the build precompresses (scripts/precompress.ts writes .br and .gz beside them). */
const PRECOMPRESSED = /\.(js|mjs|css|html|svg|webmanifest|json|txt)$/;
const HASHED = /-[A-Za-z0-9_-]{8,}\.(js|css|woff2|png|svg|webp)$/;

interface Document {
  type: string;
  /** Each encoding of the page with its own strong validator. */
  variants: Record<'identity' | 'br' | 'gzip', { body: Buffer; etag: string }>;
}

export interface ServeAppOptions {
  /** Put into the pages and the manifest in place of the build's placeholders. */
  businessName: string;
  /**
   * The first screen of a school gallery for this request's viewer (school, classes, price lists,
   * the named class's photos), or null when the viewer's grant does not open the school.
   */
  galleryPage?: (ctx: AppContext, slug: string, classId: number | null) => Promise<GalleryPageData | null>;
}

/**
 * Serves the built PWA (pwa/dist) from the API process. Hashed assets are immutable; the pages,
 * the manifest and the service worker are revalidated on every load. Text assets go out as the
 * brotli or gzip file the build wrote beside them, only to a client that asked for it (with
 * `Vary: Accept-Encoding`), through @koa/send. The pages and the manifest carry the business name,
 * so they are filled in once here and kept in memory with their compressed forms. A path that is
 * not a file and has no extension is a client route and gets the app shell; `/api/` and
 * `/payweb3/` never reach this. A school gallery asked for by a viewer whose grant opens the school
 * gets the shell with its first answers in it and the first thumbnails asked for in its head, so
 * the phone fetches them beside the scripts instead of one after another once the scripts ran.
 */
export function serveApp(distDir: string, options: ServeAppOptions): Middleware {
  const root = path.resolve(distDir);
  const documents = loadDocuments(root, options.businessName);
  const shell = documents.get(`/${SHELL}`) ?? documents.get('/');

  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path.startsWith('/api/') || ctx.path.startsWith('/payweb3/')) {
      await next();
      return;
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(ctx.path);
    } catch {
      throw new AppError(400, STATIC_MSG.badPath, 'BAD_PATH');
    }
    // Nothing here is worth compressing again: pages are compressed at start, assets at build time.
    ctx.compress = false;
    const page = documents.get(decoded);
    if (page) {
      sendDocument(ctx, page);
      return;
    }
    if (path.extname(decoded) === '') {
      if (!shell) {
        await next();
        return;
      }
      const gallery = GALLERY_PAGE.exec(decoded);
      const data = gallery && ctx.method === 'GET' && options.galleryPage ? await options.galleryPage(ctx, gallery[1] ?? '', classParam(ctx.query.class)) : null;
      if (data) sendGalleryPage(ctx, shell, data);
      else sendDocument(ctx, shell);
      return;
    }
    await sendAsset(ctx, root, decoded);
  };
}

async function sendAsset(ctx: AppContext, root: string, decoded: string): Promise<void> {
  const hashed = HASHED.test(decoded) && decoded.startsWith('/assets/');
  ctx.set('Cache-Control', hashed ? IMMUTABLE : REVALIDATE);
  if (PRECOMPRESSED.test(decoded)) ctx.vary('Accept-Encoding');
  let served: string | undefined;
  try {
    // The path is already decoded; @koa/send decodes again, so it gets the raw one.
    served = await send(ctx, ctx.path, { root, brotli: true, gzip: true, index: false, format: false });
  } catch (err) {
    // A file-like path that does not exist is a real 404, not the app.
    if ((err as { status?: number }).status === 404) throw notFound(MSG.notFound);
    throw err;
  }
  // Dot files (the build's .vite manifest) are never served.
  if (!served) throw notFound(MSG.notFound);
  // A stream that will never be read (HEAD, or unchanged since the client's copy) is closed now.
  if (ctx.fresh || ctx.method === 'HEAD') {
    const length = ctx.response.get('Content-Length');
    (ctx.body as fs.ReadStream | null)?.destroy();
    if (ctx.fresh) {
      ctx.status = 304;
      ctx.body = null;
    } else {
      ctx.body = Buffer.alloc(0);
      ctx.set('Content-Length', String(length));
    }
  }
}

function sendDocument(ctx: AppContext, doc: Document): void {
  // Brotli first whenever the client takes it (browsers list gzip first with the same weight).
  const chosen = ctx.acceptsEncodings('br', 'identity') === 'br' ? 'br' : ctx.acceptsEncodings('gzip', 'identity') === 'gzip' ? 'gzip' : 'identity';
  const variant = doc.variants[chosen];
  ctx.vary('Accept-Encoding');
  ctx.set('Cache-Control', REVALIDATE);
  ctx.set('ETag', `"${variant.etag}"`);
  ctx.type = doc.type;
  if (chosen !== 'identity') ctx.set('Content-Encoding', chosen);
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = variant.body;
}

function classParam(value: string | string[] | undefined): number | null {
  const id = Number(Array.isArray(value) ? value[0] : value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * The shell with one viewer's gallery answers (a JSON data block: never executed, so the page's
 * script policy is unchanged) and preloads of the grid's first thumbnails, matching what the grid
 * asks for on a narrow and on a wide screen. Compressed on the way out like any answer.
 */
function sendGalleryPage(ctx: AppContext, shell: Document, data: GalleryPageData): void {
  const json = JSON.stringify(data).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  // The first row only: on a slow link every other byte before the scripts delays them.
  const preloads = (data.photos?.list ?? []).slice(0, GRID_FIRST_ROW).flatMap((photo) => [
    `<link rel="preload" as="image" href="${escapeHtml(smallThumbnailPath(photo.id))}" media="${GRID_SMALL_MEDIA}" fetchpriority="high">`,
    `<link rel="preload" as="image" imagesrcset="${escapeHtml(gridSrcSet(photo.id))}" imagesizes="${GRID_SIZES}" media="${GRID_WIDE_MEDIA}" fetchpriority="high">`,
  ]);
  // Replacement functions: a `$` in a school's name must stay a `$`, never a replacement pattern.
  const html = shell.variants.identity.body
    .toString('utf8')
    .replace('</head>', () => `${preloads.join('')}</head>`)
    .replace('</body>', () => `<script type="application/json" id="${GALLERY_PAGE_DATA_ID}">${json}</script></body>`);
  ctx.set('Cache-Control', PERSONAL);
  ctx.type = shell.type;
  ctx.status = 200;
  // Compressed on the fly (the compression middleware), as the data differs per viewer.
  ctx.compress = true;
  ctx.body = html;
}

/** The pages (every top-level .html) and the manifest, with the business name filled in. */
function loadDocuments(root: string, businessName: string): Map<string, Document> {
  const documents = new Map<string, Document>();
  const names = fs.existsSync(root) ? fs.readdirSync(root) : [];
  for (const name of names) {
    const file = path.join(root, name);
    if (!fs.statSync(file).isFile()) continue;
    if (name.endsWith('.html')) {
      const html = fill(fs.readFileSync(file, 'utf8'), escapeHtml(businessName), escapeHtml(businessShortName(businessName)));
      const doc = compressDocument(html, 'text/html; charset=utf-8');
      documents.set(`/${name}`, doc);
      const route = name === 'index.html' ? '/' : `/${name.slice(0, -'.html'.length)}`;
      if (name !== SHELL) documents.set(route, doc);
    } else if (name === 'manifest.webmanifest') {
      // Inside JSON strings: JSON.stringify escapes what the name may contain, minus its quotes.
      const json = (value: string) => JSON.stringify(value).slice(1, -1);
      const manifest = fill(fs.readFileSync(file, 'utf8'), json(businessName), json(businessShortName(businessName)));
      documents.set(`/${name}`, compressDocument(manifest, 'application/manifest+json'));
    }
  }
  return documents;
}

function fill(text: string, name: string, shortName: string): string {
  return text.replaceAll(BUSINESS_SHORT_NAME_PLACEHOLDER, shortName).replaceAll(BUSINESS_NAME_PLACEHOLDER, name);
}

function compressDocument(text: string, type: string): Document {
  const identity = Buffer.from(text, 'utf8');
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 22);
  return {
    type,
    variants: {
      identity: { body: identity, etag: hash },
      br: { body: brotliCompressSync(identity, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY } }), etag: `${hash}-br` },
      gzip: { body: gzipSync(identity, { level: 9 }), etag: `${hash}-gz` },
    },
  };
}
