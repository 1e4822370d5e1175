import type { Logger } from '../logger';
import { HARDENING_MSG, MSG } from '../../contract/messages';
import { isDatabaseUnavailable } from '../db/errors';
import { StorageUnavailableError } from '../storage/errors';
import { AppError } from './errors';
import type { AppContext, Middleware } from './context';

interface HttpishError extends Error {
  status?: number;
  statusCode?: number;
  httpCode?: number;
  expose?: boolean;
  type?: string;
  code?: string | number;
}

/** Seconds a client should wait before trying again while the database cannot answer. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * A request path as the logs keep it: a digital copy's signed token, a child's flyer code and a
 * short link's token (docs/sms.md, "Short links") are cut off (docs/access.md, "What the logs keep").
 */
export const loggedPath = (path: string): string =>
  path
    .replace(/^(\/api\/downloads\/)[^/]*/, '$1{token}')
    .replace(/^(\/code\/)[^/]*/, '$1{code}')
    .replace(/^(\/s\/)[^/]*/, '$1{token}');

/**
 * First in the chain: every failure becomes JSON `{ message, code, errors?, requestId }` with the
 * right status. An unavailable database is a 503 with Retry-After. Unknown errors are logged (the
 * logger adds the request id, see logger.ts) and answered with a generic 500.
 */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx: AppContext, next) => {
    try {
      await next();
      if (ctx.body === undefined && ctx.path.startsWith('/api/')) {
        if (ctx.status === 404) throw new AppError(404, MSG.notFound);
        // The router answers an unusual method with a bare 405/501 and the Allow header; give it a body.
        if (ctx.status === 405) throw methodError(405, HARDENING_MSG.methodNotAllowed(ctx.method), 'METHOD_NOT_ALLOWED', ctx);
        if (ctx.status === 501) throw methodError(501, HARDENING_MSG.methodNotImplemented(ctx.method), 'NOT_IMPLEMENTED', ctx);
      }
    } catch (raw) {
      const err = raw as HttpishError;
      const { status, message, code, errors, headers, details } = describe(err);
      if (status === 503) {
        logger.warn({ err, method: ctx.method, path: loggedPath(ctx.path) }, code === 'STORAGE_UNAVAILABLE' ? 'object storage unavailable' : 'database unavailable');
      } else if (status >= 500) {
        logger.error({ err, method: ctx.method, path: loggedPath(ctx.path) }, 'request failed');
      }
      ctx.status = status;
      ctx.set('Cache-Control', 'no-store');
      for (const [name, value] of Object.entries(headers ?? {})) ctx.set(name, value);
      // The request id lets a parent's "something went wrong" be found in the logs (docs/errors.md, "The error shape").
      ctx.body = { ...details, ...(errors ? { message, code, errors } : { message, code }), requestId: ctx.state.requestId };
    }
  };
}

function methodError(status: number, message: string, code: string, ctx: AppContext): AppError {
  const allow = ctx.response.get('Allow');
  return new AppError(status, message, code, undefined, allow ? { Allow: allow } : undefined);
}

function describe(err: HttpishError): {
  status: number;
  message: string;
  code: string;
  errors?: Record<string, string>;
  headers?: Record<string, string>;
  details?: Record<string, unknown>;
} {
  if (err instanceof AppError) {
    return { status: err.status, message: err.message, code: err.code, errors: err.errors, headers: err.headers, details: err.details };
  }
  if (err instanceof StorageUnavailableError) {
    return {
      status: 503,
      message: HARDENING_MSG.databaseUnavailable,
      code: 'STORAGE_UNAVAILABLE',
      headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
    };
  }
  if (isDatabaseUnavailable(err)) {
    return {
      status: 503,
      message: HARDENING_MSG.databaseUnavailable,
      code: 'DATABASE_UNAVAILABLE',
      headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
    };
  }
  const status = err.status ?? err.statusCode ?? err.httpCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Body parser failures: malformed JSON, too large, wrong encoding.
    if (status === 400 && (err.type === 'entity.parse.failed' || err instanceof SyntaxError || /JSON/i.test(err.message))) {
      return { status: 400, message: MSG.malformedJson, code: 'MALFORMED_JSON' };
    }
    if (status === 413) return { status, message: HARDENING_MSG.requestTooLarge, code: 'TOO_LARGE' };
    if (status === 415) return { status, message: HARDENING_MSG.unsupportedContentType, code: 'UNSUPPORTED_TYPE' };
    return { status, message: err.expose === false ? MSG.invalidRequest : err.message || MSG.invalidRequest, code: 'BAD_REQUEST' };
  }
  if (status === 501) return { status, message: MSG.invalidRequest, code: 'NOT_IMPLEMENTED' };
  return { status: 500, message: MSG.serverError, code: 'INTERNAL' };
}
