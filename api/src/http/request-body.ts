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

/** After answering a request whose body is still coming, read and drop its rest for at most this long... */
export const LINGER_MS = 3_000;
/** ...or this many bytes, then close (docs/errors.md, "Body limits"). */
export const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * A lingering close. Closing a socket whose receive buffer still holds unread bytes makes the
 * kernel send a reset, and a reset makes the client's TCP stack drop what it received but had not
 * read yet: a client still busy sending a big body (an upload refused with 413 halfway) would see
 * "connection reset" instead of the answer. So, once the answer is sent, the server half-closes
 * (FIN: "no more from me"), keeps reading and dropping what still arrives for LINGER_MS or
 * LINGER_BYTES, and only then closes; a body that ends sooner closes the connection at once.
 */
function lingerAfterAnswer(req: IncomingMessage): void {
  // A request already cut off (408) may have let go of its socket.
  const socket = req.socket as (IncomingMessage['socket'] & { destroySoon?: () => void }) | null;
  if (!socket || socket.destroyed || socket.destroySoon === undefined) return;
  socket.destroySoon = () => {
    socket.end();
    const start = socket.bytesRead;
    const close = () => {
      clearInterval(watch);
      clearTimeout(timer);
      socket.destroy();
    };
    const timer = setTimeout(close, LINGER_MS);
    const watch = setInterval(() => {
      if (socket.bytesRead - start > LINGER_BYTES) close();
    }, 50);
    timer.unref();
    watch.unref();
    socket.once('close', close);
    req.once('end', close);
    // A reader that stopped (the upload parser after a refusal) left the body paused: drop it instead.
    req.resume();
  };
}

/**
 * Outermost: an answer given while the body is still unread (401 before an upload, 413 by size)
 * says `Connection: close`, so the connection ends after the answer instead of reading a body
 * that may be gigabytes long to the end; it ends with a lingering close, so the client can read
 * the answer.
 */
export const closeUnreadBodies: Middleware = async (ctx, next) => {
  try {
    await next();
  } finally {
    if (hasBody(ctx.req) && !ctx.req.complete && !ctx.headerSent) {
      ctx.set('Connection', 'close');
      lingerAfterAnswer(ctx.req);
    }
  }
};
