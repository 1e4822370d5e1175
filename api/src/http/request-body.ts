import type { IncomingMessage } from 'node:http';
import { HARDENING_MSG } from '../../contract/messages';
import { AppError, tooLarge, unsupportedType } from './errors';
import type { AppContext, Middleware } from './context';

/**
 * Guards for request bodies that apply to every reader (JSON/form parser, multipart, callbacks):
 * a declared size is checked before a byte is read, a body that stops arriving is cut off, and an
 * answer given before the body was read closes the connection instead of reading the rest.
 */

/** A body must grow by at least this much per window, or it is treated as stalled. */
export const BODY_MIN_PROGRESS_BYTES = 4 * 1024;

/** True when the request announces a body (a length above zero, or chunked). */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/** 413 before reading when the declared Content-Length is over the limit (chunked bodies are counted as they arrive). */
export function refuseDeclaredOversize(ctx: AppContext, maxBytes: number, message: string = HARDENING_MSG.requestTooLarge): void {
  const declared = ctx.req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) throw tooLarge(message);
}

/** Multipart bodies are read as they come; a compressed one is refused rather than mis-parsed. */
export function refuseEncodedBody(ctx: AppContext): void {
  const encoding = (ctx.get('Content-Encoding') || 'identity').trim().toLowerCase();
  if (encoding !== 'identity') throw unsupportedType(HARDENING_MSG.unsupportedContentEncoding(encoding));
}

export const bodyTimeout = () => new AppError(408, HARDENING_MSG.bodyTimeout, 'BODY_TIMEOUT');

/**
 * Watches a body while a reader consumes it: each window must bring BODY_MIN_PROGRESS_BYTES more
 * (counted on the socket, so a paused reader still sees progress) or the whole body must be in.
 * A stalled body fails the reader with 408; the answer then closes the connection. Without a
 * reader listening for errors the request is destroyed, which ends the trickle just the same.
 * Returns the function that stops watching.
 */
export function watchBodyProgress(req: IncomingMessage, windowMs: number): () => void {
  if (req.complete || windowMs <= 0) return () => undefined;
  const socket = req.socket;
  let seen = socket.bytesRead;
  const timer = setInterval(() => {
    if (req.complete || req.destroyed) {
      clearInterval(timer);
      return;
    }
    const now = socket.bytesRead;
    if (now - seen >= BODY_MIN_PROGRESS_BYTES) {
      seen = now;
      return;
    }
    clearInterval(timer);
    if (req.listenerCount('error') > 0) req.emit('error', bodyTimeout());
    else req.destroy();
  }, windowMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Outermost: an answer given while the body is still unread (401 before an upload, 413 by size)
 * says `Connection: close`, so Node closes the socket after the answer instead of reading and
 * discarding the rest of a body that may be gigabytes long.
 */
export const closeUnreadBodies: Middleware = async (ctx, next) => {
  try {
    await next();
  } finally {
    if (hasBody(ctx.req) && !ctx.req.complete && !ctx.headerSent) ctx.set('Connection', 'close');
  }
};
