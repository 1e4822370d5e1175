import { MSG } from '../../contract/messages';
import { notFound } from '../http/errors';
import type { AppContext } from '../http/context';

export interface SendOptions {
  contentType: string;
  /** Bare value; quoted here. */
  etag: string;
  cacheControl: string;
  /** A server-chosen name for Content-Disposition (checklist E5). */
  downloadName: string;
  /** A request header the choice of file depended on. */
  vary?: string;
}

/** True when If-None-Match names this ETag (weak or strong, in a list, or '*'). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const tag = part.trim().replace(/^W\//, '');
    return tag === '*' || tag === `"${etag}"`;
  });
}

/**
 * Sends a stored object as is: never re-encoded per request (D9). A conditional request is
 * answered before the storage is touched; an object gone from storage is a JSON 404. The objects
 * sent here are renditions and example images, tens or hundreds of kilobytes, so each is read
 * whole (`read`: the storage's whole-object read, the callback file API on `file:`) and written in
 * one piece: no stream to set up and tear down per image, which a gallery asking for forty
 * thumbnails at once pays forty times.
 */
export async function sendStoredObject(ctx: AppContext, read: () => Promise<Buffer | null>, options: SendOptions): Promise<void> {
  const headers = {
    'Cache-Control': options.cacheControl,
    ETag: `"${options.etag}"`,
    'X-Content-Type-Options': 'nosniff',
  };
  if (options.vary) ctx.vary(options.vary);
  if (etagMatches(ctx.get('If-None-Match'), options.etag)) {
    ctx.set(headers);
    ctx.status = 304;
    return;
  }
  const data = await read();
  if (!data) throw notFound(MSG.imageNotFound);
  ctx.set(headers);
  ctx.set('Content-Disposition', `inline; filename="${options.downloadName}"`);
  ctx.type = options.contentType;
  ctx.body = data;
}
