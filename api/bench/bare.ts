/**
 * Honest references for the benchmarks: the least work that gives the same result, with nothing
 * of the product around it.
 */
import { createReadStream } from 'node:fs';
import http from 'node:http';
import sharp, { type Channels } from 'sharp';
import { PREVIEW_MAX_SIDE, SMALL_THUMBNAIL_MAX_SIDE, THUMBNAIL_MAX_SIDE, UPLOAD_MAX_PIXELS } from '../contract/constants';
import { WEBP_PREVIEW, WEBP_SMALL_THUMB, WEBP_THUMB } from '../src/media/renditions';

const inside = (side: number) => ({ width: side, height: side, fit: 'inside', withoutEnlargement: true }) as const;
type Raw = { width: number; height: number; channels: Channels };

async function shrink(data: Buffer, raw: Raw, side: number): Promise<{ data: Buffer; raw: Raw }> {
  const out = await sharp(data, { raw }).resize(inside(side)).raw().toBuffer({ resolveWithObject: true });
  return { data: out.data, raw: { width: out.info.width, height: out.info.height, channels: out.info.channels } };
}

/** The three renditions an upload stores, encoded as the product encodes them but with no watermark. */
export interface CleanRenditions {
  preview: Buffer;
  thumbnail: Buffer;
  smallThumbnail: Buffer;
}

/**
 * The minimal libvips work of an upload: one decode shrunk on load to preview size, the resizes to
 * the thumbnail and the small thumbnail, and the three WebP encodes the product stores, with the
 * product's encoder settings. No watermark, no checks, no hashing, nothing written.
 */
export async function cleanRenditions(file: string): Promise<CleanRenditions> {
  const base = await sharp(file, { limitInputPixels: UPLOAD_MAX_PIXELS, failOn: 'error' })
    .autoOrient()
    .resize(inside(PREVIEW_MAX_SIDE))
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw: Raw = { width: base.info.width, height: base.info.height, channels: base.info.channels };
  const preview = await sharp(base.data, { raw }).webp(WEBP_PREVIEW).toBuffer();
  const thumb = await shrink(base.data, raw, THUMBNAIL_MAX_SIDE);
  const thumbnail = await sharp(thumb.data, { raw: thumb.raw }).webp(WEBP_THUMB).toBuffer();
  const small = await shrink(thumb.data, thumb.raw, SMALL_THUMBNAIL_MAX_SIDE);
  const smallThumbnail = await sharp(small.data, { raw: small.raw }).webp(WEBP_SMALL_THUMB).toBuffer();
  return { preview, thumbnail, smallThumbnail };
}

/** `cleanRenditions` as the throughput reference: the bytes it made, added up. */
export async function minimalRenditions(file: string): Promise<number> {
  const { preview, thumbnail, smallThumbnail } = await cleanRenditions(file);
  return preview.length + thumbnail.length + smallThumbnail.length;
}

/**
 * A bare Node file server: `GET /<n>` streams files[n] from disk with its type and length, nothing
 * else. The reference the image endpoints are measured against.
 */
export function bareFileServer(files: readonly string[], sizes: readonly number[], contentType: string): http.Server {
  return http.createServer((req, res) => {
    const index = Number((req.url ?? '/').slice(1));
    const file = files[index];
    if (file === undefined) {
      res.statusCode = 404;
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': sizes[index] });
    createReadStream(file).pipe(res);
  });
}

/** Runs `task` over every item with at most `concurrency` at once; resolves when all are done. */
export async function pool<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
