import type { Logger } from '../logger';
import { MSG } from '../../contract/messages';
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

/**
 * First in the chain: every failure becomes JSON `{ message, code, errors? }` with the right status
 * (D11). Unknown errors are logged with the request id and answered with a generic 500.
 */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx: AppContext, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && ctx.path.startsWith('/api/')) {
        throw new AppError(404, MSG.notFound);
      }
    } catch (raw) {
      const err = raw as HttpishError;
      const { status, message, code, errors, headers } = describe(err);
      if (status >= 500) {
        logger.error({ err, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'request failed');
      }
      ctx.status = status;
      ctx.set('Cache-Control', 'no-store');
      for (const [name, value] of Object.entries(headers ?? {})) ctx.set(name, value);
      ctx.body = errors ? { message, code, errors } : { message, code };
    }
  };
}

function describe(err: HttpishError): {
  status: number;
  message: string;
  code: string;
  errors?: Record<string, string>;
  headers?: Record<string, string>;
} {
  if (err instanceof AppError) {
    return { status: err.status, message: err.message, code: err.code, errors: err.errors, headers: err.headers };
  }
  const status = err.status ?? err.statusCode ?? err.httpCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Body parser failures: malformed JSON, too large, wrong encoding.
    if (status === 400 && (err.type === 'entity.parse.failed' || err instanceof SyntaxError || /JSON/i.test(err.message))) {
      return { status: 400, message: MSG.malformedJson, code: 'MALFORMED_JSON' };
    }
    if (status === 413) return { status, message: 'The request is too large', code: 'TOO_LARGE' };
    if (status === 415) return { status, message: 'Unsupported content type', code: 'UNSUPPORTED_TYPE' };
    return { status, message: err.expose === false ? MSG.invalidRequest : err.message || MSG.invalidRequest, code: 'BAD_REQUEST' };
  }
  return { status: 500, message: MSG.serverError, code: 'INTERNAL' };
}
