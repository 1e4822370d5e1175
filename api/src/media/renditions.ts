import { createHash } from 'node:crypto';
import sharp, { type Channels, type WebpOptions } from 'sharp';
import { PREVIEW_MAX_SIDE, SMALL_THUMBNAIL_MAX_SIDE, THUMBNAIL_MAX_SIDE } from '../../contract/constants';
import { DECODE_OPTIONS } from './image-check';
import { scanCopy, type ScanImage } from './card-scan';
import { watermarkInPlace, watermarkOverlay } from './watermark';

export const EXAMPLE_MAX_SIDE = 800;
export const WEBP_PREVIEW = { quality: 80, effort: 2 } as const;
export const WEBP_THUMB = { quality: 76, effort: 2 } as const;
/** A class of 40 small thumbnails should stay under 400 kB on a phone; a slower encoder pays here. */
export const WEBP_SMALL_THUMB = { quality: 64, effort: 4 } as const;

export interface Rendition {
  data: Buffer;
  width: number;
  height: number;
  etag: string;
}

export interface PhotoRenditions {
  preview: Rendition;
  thumbnail: Rendition;
  /** The grid's thumbnail on a phone or with Save-Data. */
  smallThumbnail: Rendition;
  /** A copy of the clean decoded pixels (before any watermark), for looking for a QR card; null when not asked for. */
  scanImage: ScanImage | null;
}

type Raw = { width: number; height: number; channels: Channels };

/** A strong validator for the stored bytes: it changes only when the file does. */
export const etagOf = (data: Buffer) => createHash('sha256').update(data).digest('hex').slice(0, 32);

const fitInside = (side: number) => ({ width: side, height: side, fit: 'inside', withoutEnlargement: true }) as const;

/**
 * One decode of the original: auto-oriented and shrunk on load straight to preview size, kept as
 * raw pixels; the thumbnail is cut from those pixels and the small thumbnail from the thumbnail's,
 * so the original is never read twice and each step shrinks the least pixels it can. Each
 * rendition's pixels are marked in place once the next smaller one has been cut from them clean.
 * With `cardScan` (asked once the decode is done), a copy of the clean decode is kept for the card
 * scan, which takes its grey copy on its own thread.
 * Metadata (EXIF, GPS, camera serial) is dropped because sharp only keeps it when asked.
 */
export async function renderPhoto(
  input: string | Buffer,
  businessName: string,
  options: { cardScan?: boolean | (() => boolean) } = {},
): Promise<PhotoRenditions> {
  const base = await decodeToPreviewSize(input);
  // The thumbnail is cut on libvips' threads while JavaScript copies the pixels for the card scan:
  // both only read the clean pixels, and the watermark goes in after both.
  const cutting = shrink(base.data, base.raw, THUMBNAIL_MAX_SIDE);
  const wantScan = typeof options.cardScan === 'function' ? options.cardScan() : options.cardScan;
  const scanImage = wantScan ? scanCopy(base.data, base.raw) : null;
  const thumb = await cutting;
  // The preview's encoding (the longest step, one thread in libwebp) runs beside the two smaller
  // renditions, so the cores stay busy while JavaScript blends a watermark or hashes a rendition
  // (docs/images.md, "Renditions").
  const [preview, [thumbnail, smallThumbnail]] = await Promise.all([
    watermarked(base.data, base.raw, WEBP_PREVIEW, businessName),
    (async () => {
      const small = await shrink(thumb.data, thumb.raw, SMALL_THUMBNAIL_MAX_SIDE);
      return [await watermarked(thumb.data, thumb.raw, WEBP_THUMB, businessName), await watermarked(small.data, small.raw, WEBP_SMALL_THUMB, businessName)] as const;
    })(),
  ]);
  return { preview, thumbnail, smallThumbnail, scanImage };
}

/**
 * Only the small thumbnail, for photos stored before it existed: the same decode guards and the
 * same shrinking steps as an upload, so it matches what a new upload gets.
 */
export async function renderSmallThumbnail(input: string | Buffer, businessName: string): Promise<Rendition> {
  const base = await decodeToPreviewSize(input);
  const thumb = await shrink(base.data, base.raw, THUMBNAIL_MAX_SIDE);
  const small = await shrink(thumb.data, thumb.raw, SMALL_THUMBNAIL_MAX_SIDE);
  return watermarked(small.data, small.raw, WEBP_SMALL_THUMB, businessName);
}

/** The original decoded once, under the decode guards, auto-oriented and shrunk to preview size as sRGB pixels. */
async function decodeToPreviewSize(input: string | Buffer): Promise<{ data: Buffer; raw: Raw }> {
  const base = await sharp(input, DECODE_OPTIONS)
    .autoOrient()
    .resize(fitInside(PREVIEW_MAX_SIDE))
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return { data: base.data, raw: { width: base.info.width, height: base.info.height, channels: base.info.channels } };
}

async function shrink(pixels: Buffer, raw: Raw, side: number): Promise<{ data: Buffer; raw: Raw }> {
  const out = await sharp(pixels, { raw }).resize(fitInside(side)).raw().toBuffer({ resolveWithObject: true });
  return { data: out.data, raw: { width: out.info.width, height: out.info.height, channels: out.info.channels } };
}

/** Marks the pixels (in place, for three channels) and encodes them. */
async function watermarked(
  pixels: Buffer,
  raw: Raw,
  webp: WebpOptions,
  businessName: string,
): Promise<Rendition> {
  // A photo with transparency (a PNG) is rare: it gets the watermark composited by libvips, which
  // also treats the alpha channel; every other photo gets the cached one blended in.
  let image;
  if (raw.channels === 3) {
    await watermarkInPlace(pixels, raw.width, raw.height, businessName);
    image = sharp(pixels, { raw });
  } else {
    image = sharp(pixels, { raw }).composite([{ input: await watermarkOverlay(raw.width, raw.height, businessName), top: 0, left: 0 }]);
  }
  const data = await image.webp(webp).toBuffer();
  return { data, width: raw.width, height: raw.height, etag: etagOf(data) };
}

/** Price-list example: same decoder guards, no watermark (spec section 9), WebP at 800 px. */
export async function renderExample(input: string | Buffer): Promise<Buffer> {
  return sharp(input, DECODE_OPTIONS).autoOrient().resize(fitInside(EXAMPLE_MAX_SIDE)).toColourspace('srgb').webp({ quality: 82 }).toBuffer();
}
