import { createHash } from 'node:crypto';
import sharp, { type Channels, type WebpOptions } from 'sharp';
import { PREVIEW_MAX_SIDE, THUMBNAIL_MAX_SIDE } from '../../contract/constants';
import { DECODE_OPTIONS } from './image-check';
import { watermarkSvg } from './watermark';

export const EXAMPLE_MAX_SIDE = 800;
export const WEBP_PREVIEW = { quality: 80, effort: 2 } as const;
export const WEBP_THUMB = { quality: 76, effort: 2 } as const;

export interface Rendition {
  data: Buffer;
  width: number;
  height: number;
  etag: string;
}

export interface PhotoRenditions {
  preview: Rendition;
  thumbnail: Rendition;
}

/** A strong validator for the stored bytes: it changes only when the file does. */
export const etagOf = (data: Buffer) => createHash('sha256').update(data).digest('hex').slice(0, 32);

const fitInside = (side: number) => ({ width: side, height: side, fit: 'inside', withoutEnlargement: true }) as const;

/**
 * One decode of the original: auto-oriented and shrunk on load straight to preview size, kept as
 * raw pixels; the thumbnail is cut from those pixels, so the original is never read twice.
 * Metadata is dropped because sharp only keeps it when asked (checklist E4).
 */
export async function renderPhoto(input: string | Buffer, businessName: string): Promise<PhotoRenditions> {
  const base = await sharp(input, DECODE_OPTIONS)
    .autoOrient()
    .resize(fitInside(PREVIEW_MAX_SIDE))
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const raw = { width: base.info.width, height: base.info.height, channels: base.info.channels };
  const preview = await watermarked(base.data, raw, WEBP_PREVIEW, businessName);

  const small = await sharp(base.data, { raw })
    .resize(fitInside(THUMBNAIL_MAX_SIDE))
    .raw()
    .toBuffer({ resolveWithObject: true });
  const thumbnail = await watermarked(
    small.data,
    { width: small.info.width, height: small.info.height, channels: small.info.channels },
    WEBP_THUMB,
    businessName,
  );
  return { preview, thumbnail };
}

async function watermarked(
  pixels: Buffer,
  raw: { width: number; height: number; channels: Channels },
  webp: WebpOptions,
  businessName: string,
): Promise<Rendition> {
  const data = await sharp(pixels, { raw })
    .composite([{ input: watermarkSvg(raw.width, raw.height, businessName), top: 0, left: 0 }])
    .webp(webp)
    .toBuffer();
  return { data, width: raw.width, height: raw.height, etag: etagOf(data) };
}

/** Price-list example: same decoder guards, no watermark (spec section 9), WebP at 800 px. */
export async function renderExample(input: string | Buffer): Promise<Buffer> {
  return sharp(input, DECODE_OPTIONS).autoOrient().resize(fitInside(EXAMPLE_MAX_SIDE)).toColourspace('srgb').webp({ quality: 82 }).toBuffer();
}
