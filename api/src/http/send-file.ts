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

/** An attachment's Content-Disposition: an ASCII fallback and the UTF-8 name. */
export function attachmentDisposition(fileName: string): string {
  return `attachment; filename="${fileName.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

function disposition(file: FileResponse): string {
  return file.disposition === 'attachment' ? attachmentDisposition(file.fileName) : `inline; filename="${file.fileName}"`;
}

/**
 * The one place a stored file is written to the answer (docs/images.md, "Serving images"): media
 * describes the file, this sends it, as it is, never re-encoded. A streamed file (a downloaded
 * original) is piped with its declared length. Otherwise a conditional request naming the file's
 * ETag is answered 304 before the file is read, and its bytes are read whole and sent in one write.
 */
export async function sendFile(ctx: AppContext, file: FileResponse): Promise<void> {
  if ('stream' in file) {
    ctx.set('Content-Disposition', disposition(file));
    ctx.set('Cache-Control', file.cacheControl);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = file.contentType;
    ctx.length = file.size;
    ctx.body = file.stream;
    return;
  }
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
  ctx.set('Content-Disposition', disposition(file));
  ctx.type = file.contentType;
  ctx.body = data;
}
