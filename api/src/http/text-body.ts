import { badRequest, tooLarge } from './errors';
import type { AppContext } from './context';
import { watchBodyProgress } from './request-body';

/**
 * Reads a plain-text request body (a CSV upload) as UTF-8, refusing more than `limit` bytes while
 * it streams in, so a huge upload is cut off instead of buffered. The JSON body parser leaves
 * text/* alone, so the stream is still unread here. A body that stalls for `bodyTimeoutMs` is cut
 * off with 408, like every other body.
 */
export async function readTextBody(
  ctx: AppContext,
  limit: number,
  messages: { tooLarge: string; notUtf8: string },
  bodyTimeoutMs = 0,
): Promise<string> {
  const declared = Number(ctx.get('Content-Length'));
  if (Number.isFinite(declared) && declared > limit) {
    ctx.req.resume();
    throw tooLarge(messages.tooLarge);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const stopWatching = watchBodyProgress(ctx.req, bodyTimeoutMs);
  try {
    for await (const chunk of ctx.req) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buffer.length;
      if (size > limit) {
        // The rest is drained unread, so the client still receives the 413.
        ctx.req.resume();
        throw tooLarge(messages.tooLarge);
      }
      chunks.push(buffer);
    }
  } finally {
    stopWatching();
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw badRequest(messages.notUtf8, undefined, 'NOT_UTF8');
  }
}
