import fs from 'node:fs';
import path from 'node:path';
import type { Middleware } from './context';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/**
 * Serves the built PWA (pwa/dist) from the API process (D1): hashed assets are immutable, the
 * shell and the service worker are revalidated on every load, and any other GET that is not an
 * API or gateway path gets index.html so client-side routes work on reload.
 */
export function serveApp(distDir: string): Middleware {
  const root = path.resolve(distDir);
  const index = path.join(root, 'index.html');
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path.startsWith('/api/') || ctx.path.startsWith('/payweb3/')) {
      await next();
      return;
    }
    let file = path.resolve(root, `.${decodeURIComponent(ctx.path)}`);
    if (!file.startsWith(root + path.sep) && file !== root) {
      ctx.status = 404;
      return;
    }
    let stat = await fs.promises.stat(file).catch(() => null);
    if (!stat?.isFile()) {
      // A file-like path that does not exist is a real 404; anything else is a client route.
      if (path.extname(ctx.path) !== '') {
        await next();
        return;
      }
      file = index;
      stat = await fs.promises.stat(file).catch(() => null);
      if (!stat) {
        await next();
        return;
      }
    }
    const name = path.basename(file);
    const hashed = /-[A-Za-z0-9_-]{8,}\.(js|css|woff2|png|svg|webp)$/.test(name) && file.includes(`${path.sep}assets${path.sep}`);
    ctx.set('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    ctx.type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    ctx.length = stat.size;
    ctx.body = fs.createReadStream(file);
  };
}
