import { createHash, timingSafeEqual } from 'node:crypto';
import http, { type Server } from 'node:http';
import { HARDENING_MSG, MSG, METRICS_MSG } from '../../contract/messages';
import { AppError, notFound } from '../http/errors';
import type { AppContext, Middleware } from '../http/context';
import type { Logger } from '../logger';
import type { Metrics } from './metrics';

/** The path Prometheus scrapes, on the metrics port or (with the token) on the main one. */
export const METRICS_PATH = '/metrics';

/**
 * The route label of a request: the template @koa/router matched (`/api/orders/:id`), never the
 * path itself, so ids, slugs and tokens in paths never become labels. Requests no API route took
 * are `unmatched` under /api and `app` elsewhere (the PWA's files and pages).
 */
export function routeLabel(ctx: AppContext): string {
  const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string') return matched;
  const path = ctx.path;
  if (path === METRICS_PATH) return METRICS_PATH;
  return path.startsWith('/api/') || path === '/api' ? 'unmatched' : 'app';
}

/**
 * First in the chain: one counter and one histogram observation per request, labelled by method,
 * route template and status. It costs about a microsecond and allocates nothing per path.
 */
export function httpMetrics(metrics: Metrics): Middleware {
  return async (ctx, next) => {
    const start = performance.now();
    let failed = true;
    try {
      await next();
      failed = false;
    } finally {
      metrics.request(ctx.method, routeLabel(ctx), failed ? 500 : ctx.status, (performance.now() - start) / 1000);
    }
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * GET /metrics on the main port (docs/operations.md, "Metrics"): only with `Authorization: Bearer
 * METRICS_TOKEN`; without METRICS_TOKEN the path does not exist (404), so the public never sees it.
 */
export function metricsEndpoint(metrics: Metrics, token: string | null): Middleware {
  const expected = token ? digest(token) : null;
  return async (ctx, next) => {
    if (ctx.path !== METRICS_PATH) return next();
    if (!expected) throw notFound(MSG.notFound);
    const given = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('Authorization'))?.[1];
    // Compared as digests of equal length, in constant time.
    if (!given || !timingSafeEqual(digest(given), expected)) {
      throw new AppError(401, METRICS_MSG.tokenRequired, 'METRICS_TOKEN_REQUIRED', undefined, { 'WWW-Authenticate': 'Bearer realm="metrics"' });
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new AppError(405, HARDENING_MSG.methodNotAllowed(ctx.method), 'METHOD_NOT_ALLOWED', undefined, { Allow: 'GET, HEAD' });
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.type = metrics.contentType;
    ctx.body = await metrics.exposition();
  };
}

/**
 * The metrics listener on METRICS_PORT: GET /metrics and nothing else, no token. It binds
 * METRICS_HOST, loopback unless set, so a port opened by mistake on a public machine still answers
 * no one else (docs/operations.md, "Metrics").
 */
export async function listenMetrics(metrics: Metrics, port: number, logger: Logger, host: string): Promise<Server> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== METRICS_PATH) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
      return;
    }
    metrics.exposition().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        logger.error({ err }, 'collecting the metrics failed');
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Collecting the metrics failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
