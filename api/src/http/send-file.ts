import type { AppContext } from './context';
import type { FileResponse } from '../media/media.types';

/** True when If-None-Match names this ETag (weak or strong, in a list, or '*'). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const tag = part.trim().replace(/^W\//, '');
    return tag === '*' || tag === `"${etag}"`;
  });
}

/**
 * The one place a stored file is written to the answer (docs/images.md, "Serving images"): media
 * describes the file, this sends it. A conditional request naming the file's ETag is answered 304
 * before the file is read; otherwise its bytes are read whole and sent in one write, as they are,
 * never re-encoded.
 */
export async function sendFile(ctx: AppContext, file: FileResponse): Promise<void> {
  const headers = {
    'Cache-Control': file.cacheControl,
    ETag: `"${file.etag}"`,
    'X-Content-Type-Options': 'nosniff',
  };
  if (file.vary) ctx.vary(file.vary);
  if (etagMatches(ctx.get('If-None-Match'), file.etag)) {
    ctx.set(headers);
    ctx.status = 304;
    return;
  }
  const data = await file.read();
  ctx.set(headers);
  ctx.set('Content-Disposition', `inline; filename="${file.fileName}"`);
  ctx.type = file.contentType;
  ctx.body = data;
}
