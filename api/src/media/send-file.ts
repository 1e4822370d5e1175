import fs from 'node:fs/promises';
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
 * Streams a stored file as is: never re-encoded per request (D9). A conditional request is
 * answered before the disk is touched; a file gone from storage is a JSON 404.
 */
export async function sendStoredFile(ctx: AppContext, filePath: string, options: SendOptions): Promise<void> {
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
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(filePath, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(MSG.imageNotFound);
    throw err;
  }
  try {
    const { size } = await handle.stat();
    ctx.set(headers);
    ctx.set('Content-Disposition', `inline; filename="${options.downloadName}"`);
    ctx.type = options.contentType;
    ctx.length = size;
    ctx.body = handle.createReadStream({ autoClose: true });
  } catch (err) {
    await handle.close();
    throw err;
  }
}
