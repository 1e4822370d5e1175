import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import Router from '@koa/router';
import type { AppState, AppContext } from './http/context';
import type { Deps } from './deps';
import type { Services } from './services';
import { DATABASE_RETRY_AFTER_SECONDS, errorHandler, loggedPath } from './http/error-handler';
import { inRequest } from './logger';
import { HARDENING_MSG } from '../contract/messages';
import { bodyParser } from './http/body-parser';
import { closeUnreadBodies } from './http/request-body';
import { takeTurns } from './http/turns';
import { CALLBACK_MAX_BYTES, CALLBACK_PATHS } from './payments/callback-limits';
import { createStaffRoutes } from './staff/staff.routes';
import { createSchoolRoutes } from './schools/schools.routes';
import { createAlbumRoutes } from './albums/albums.routes';
import { createPriceListRoutes } from './price-lists/price-lists.routes';
import { createPhotoRoutes } from './photos/photos.routes';
import { createImageRoutes } from './images/images.routes';
import { createDashboardRoutes } from './dashboard/dashboard.routes';
import { createReportRoutes } from './reports/reports.routes';
import { createCustomerRoutes } from './customers/customers.routes';
import { createOrderRoutes } from './orders/orders.routes';
import { createPaymentRoutes } from './payments/payments.routes';
import { createPrintBatchRoutes } from './print-batches/print-batches.routes';
import { createStudentRoutes } from './students/students.routes';
import { createGuardianRoutes } from './guardians/guardians.routes';
import { createCartRoutes } from './carts/carts.routes';
import { createSeasonRoutes } from './season/season.routes';
import { createCouponRoutes } from './coupons/coupons.routes';
import { createAuditRoutes } from './audit/audit.routes';
import { createShortLinkRoutes } from './sms/short-links.routes';
import { serveApp } from './http/static-app';
import { securityHeaders } from './http/security-headers';
import { compression } from './http/compression';
import { httpMetrics, metricsEndpoint } from './metrics/http';

export type ApiRouter = Router<AppState, AppContext>;

/** The Cache-Control of every /api answer whose route sets none. */
const API_CACHE_CONTROL = 'private, no-store';

/**
 * Builds the Koa app from its dependencies and the services built once from them (bootstrap.ts);
 * never listens (server.ts does).
 */
export function createApp(deps: Deps & { services: Services }): Koa<AppState> {
  const { services } = deps;
  const app = new Koa<AppState>({ proxy: deps.config.trustProxy });
  app.silent = true;

  // Outermost, so it sees every request's final status and whole time (docs/operations.md, "Metrics").
  app.use(httpMetrics(deps.metrics));
  // The request id: in the X-Request-Id header, on every log line written while serving the
  // request, on its one summary line, and in every error body (docs/operations.md, "Logs and request ids").
  app.use(async (ctx, next) => {
    const requestId = randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    await inRequest(requestId, async () => {
      try {
        await next();
      } finally {
        const ms = Math.round(performance.now() - started);
        const path = loggedPath(ctx.path);
        deps.logger.info({ method: ctx.method, path, status: ctx.status, ms }, `${ctx.method} ${path} ${ctx.status} ${ms} ms`);
      }
    });
  });
  // In a rush, each turn of the event loop starts a few requests and the others wait their turn, so
  // new connections are accepted and everyone is served in order (docs/operations.md, "Taking turns in a rush").
  app.use(takeTurns());
  app.use(closeUnreadBodies);
  app.use(errorHandler(deps.logger));
  app.use(
    securityHeaders({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          'img-src': ["'self'", 'data:', 'blob:'],
          'form-action': ["'self'", 'https://secure.paygate.co.za'],
          'base-uri': ["'none'"],
          'object-src': ["'none'"],
          'frame-ancestors': ["'none'"],
        },
      },
      crossOriginResourcePolicy: { policy: 'same-origin' },
      strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
    }),
  );
  // GET /metrics with the METRICS_TOKEN bearer; without one configured, a 404 (docs/operations.md, "Metrics").
  app.use(metricsEndpoint(deps.metrics, deps.config.metricsToken));
  app.use(deps.tokens.authenticate);
  // Image answers are the most frequent by far (a gallery asks for dozens at once) and need
  // neither compression nor a body: they are routed here, before the middleware that only other
  // requests use. Access checks are the same: they live in the image routes themselves.
  const images = createImageRoutes(deps, services).prefix('/api');
  app.use(images.routes());
  app.use(images.allowedMethods());
  // The image routes keep each photo's state for up to a second; a request that may have changed
  // one (any but GET and HEAD) makes this process read them afresh once it is done, so its own
  // changes hold from the next image on (docs/access.md, "The gallery cookie").
  app.use(async (ctx, next) => {
    try {
      await next();
    } finally {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') services.images.forgetStates();
    }
  });
  app.use(compression());
  app.use(
    bodyParser({
      bodyTimeoutMs: deps.config.requestBodyTimeoutMs,
      smallBodies: { paths: CALLBACK_PATHS, maxBytes: CALLBACK_MAX_BYTES },
    }),
  );

  const api: ApiRouter = new Router<AppState, AppContext>({ prefix: '/api' });
  // API answers are personal or change at any moment: unless a route says otherwise, no cache
  // (the browser's nor a proxy's) keeps them. Error answers get `no-store` from the error handler.
  api.use(async (ctx, next) => {
    await next();
    if (!ctx.response.get('Cache-Control')) ctx.set('Cache-Control', API_CACHE_CONTROL);
  });
  api.get('/health', async (ctx) => {
    const report = await deps.health();
    ctx.set('Cache-Control', 'no-store');
    if (report.status === 'ok') {
      ctx.body = report;
      return;
    }
    // A load balancer takes this process out of rotation; the body says which dependency failed.
    const code = report.database === 'down' ? 'DATABASE_UNAVAILABLE' : report.storage === 'down' ? 'STORAGE_UNAVAILABLE' : 'REDIS_UNAVAILABLE';
    deps.logger.warn({ ...report }, 'health check failed');
    ctx.status = 503;
    ctx.set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    ctx.body = { message: HARDENING_MSG.databaseUnavailable, code, ...report, requestId: ctx.state.requestId };
  });
  for (const routes of [
    createStaffRoutes(deps, services),
    createCustomerRoutes(deps, services),
    createOrderRoutes(deps, services),
    createPaymentRoutes(deps, services),
    createSchoolRoutes(deps, services),
    createSeasonRoutes(deps, services),
    createAlbumRoutes(deps, services),
    createPriceListRoutes(deps, services),
    createCouponRoutes(deps, services),
    createPhotoRoutes(deps, services),
    createDashboardRoutes(deps, services),
    createReportRoutes(deps, services),
    createStudentRoutes(deps, services),
    createPrintBatchRoutes(deps, services),
    createGuardianRoutes(deps, services),
    createCartRoutes(deps, services),
    createAuditRoutes(deps, services),
  ]) {
    api.use(routes.routes(), routes.allowedMethods());
  }
  app.use(api.routes());
  // Not thrown: the router then sets Allow itself, and the error handler adds the JSON body.
  app.use(api.allowedMethods());
  // Short links from SMS, at the site's root so they stay short (docs/sms.md, "Short links").
  app.use(createShortLinkRoutes(deps, services).routes());
  // Without real credentials the app is its own PayWeb3 gateway, at the same paths
  // (docs/payments.md, "The built-in sandbox").
  const sandbox = deps.gateway.sandbox;
  if (sandbox) app.use(sandbox.router.routes());
  if (deps.appDir) {
    const { galleryPages } = services;
    app.use(
      serveApp(deps.appDir, {
        businessName: deps.config.businessName,
        galleryPage: async (ctx, slug, classId) => {
          const viewer = await deps.access.viewer(ctx);
          const page = await galleryPages.forViewer(slug, classId, viewer);
          // The page carries a class's photos: the same visit as the API's list (docs/reports.md, "Families who opened the gallery").
          if (page?.photos) await services.galleryVisits.classSeen(viewer, deps.access.held(ctx), page.photos.albumId);
          return page;
        },
      }),
    );
  }
  return app;
}
