import { koaBody, HttpMethodEnum } from 'koa-body';
import { HARDENING_MSG, MSG } from '../../contract/messages';
import { AppError, badRequest, tooLarge, unsupportedType } from './errors';
import type { AppContext, Middleware } from './context';
import { watchBodyProgress } from './request-body';

export interface BodyParserOptions {
  /** How long a body may stall (no BODY_MIN_PROGRESS_BYTES more) before it is cut with 408; 0 turns the watch off. */
  bodyTimeoutMs?: number;
  /** Paths whose bodies are small by nature (gateway callbacks), with their limit in bytes. */
  smallBodies?: { paths: readonly string[]; maxBytes: number };
}

/**
 * JSON and urlencoded bodies (multipart is read per route with its own limits). The raw text is
 * kept (ctx.request.rawBody) because PayWeb3 checksums depend on the posted field order. Errors of
 * the reading itself (size, encoding, syntax, a stalled body) become clear 4xx answers.
 */
export function bodyParser(options: BodyParserOptions = {}): Middleware {
  const make = (jsonLimit: string | number, formLimit: string | number) =>
    koaBody({
      json: true,
      urlencoded: true,
      text: false,
      multipart: false,
      jsonLimit,
      formLimit,
      includeUnparsed: true,
      jsonStrict: true,
      parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
    });
  const general = make('1mb', '256kb');
  const small = options.smallBodies ? make(options.smallBodies.maxBytes, options.smallBodies.maxBytes) : null;
  const smallPaths = new Set(options.smallBodies?.paths ?? []);
  const noop = async () => undefined;

  return async (ctx: AppContext, next) => {
    const parse = small && smallPaths.has(ctx.path) ? small : general;
    const stopWatching = watchBodyProgress(ctx.req, options.bodyTimeoutMs ?? 0);
    try {
      // koa-body parses, then calls next: parsing runs alone here so that only its own errors are translated.
      await parse(ctx, noop);
    } catch (err) {
      throw readingError(err);
    } finally {
      stopWatching();
    }
    await next();
  };
}

interface ReadError extends Error {
  status?: number;
  statusCode?: number;
  type?: string;
  code?: string;
  errno?: number;
}

function readingError(raw: unknown): Error {
  if (raw instanceof AppError) return raw;
  const err = raw as ReadError;
  const code = typeof err.code === 'string' ? err.code : '';
  // zlib and brotli report bytes that are not what Content-Encoding says with their own codes.
  if (code.startsWith('Z_') || code.startsWith('ERR__ERROR_') || code.startsWith('ERR_BROTLI')) {
    return badRequest(HARDENING_MSG.badContentEncoding, undefined, 'BAD_CONTENT_ENCODING');
  }
  const status = err.status ?? err.statusCode;
  if (status === 415 && /Content-Encoding/i.test(err.message)) {
    return unsupportedType(HARDENING_MSG.unsupportedContentEncoding(err.message.replace(/^.*Content-Encoding:\s*/i, '').slice(0, 40)));
  }
  if (status === 413) return tooLarge(HARDENING_MSG.requestTooLarge);
  if (status === 400 && (err.type === 'entity.parse.failed' || err instanceof SyntaxError)) {
    return badRequest(MSG.malformedJson, undefined, 'MALFORMED_JSON');
  }
  if (err.type === 'request.aborted' || code === 'ECONNABORTED') return badRequest(MSG.invalidRequest, undefined, 'REQUEST_ABORTED');
  return raw as Error;
}
