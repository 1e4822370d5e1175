import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { PREVIEW_MAX_SIDE, THUMBNAIL_MAX_SIDE, UPLOAD_MAX_PIXELS } from '../contract/constants';
import { WEBP_PREVIEW, WEBP_THUMB } from '../src/media/renditions';
import { watermarkSvg } from '../src/media/watermark';

const BUSINESS_NAME = 'Lesedi School Photos';
const inside = (side: number) => ({ width: side, height: side, fit: 'inside', withoutEnlargement: true }) as const;

/**
 * The reference: the same sharp work as an upload (decode, auto-orient, resize, watermark,
 * WebP encode, write) with no HTTP, validation, hashing or database around it.
 */
export async function bareRenditions(file: string, outDir: string): Promise<void> {
  const base = await sharp(file, { limitInputPixels: UPLOAD_MAX_PIXELS, failOn: 'error' })
    .autoOrient()
    .resize(inside(PREVIEW_MAX_SIDE))
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { width: base.info.width, height: base.info.height, channels: base.info.channels };
  const preview = await sharp(base.data, { raw })
    .composite([{ input: watermarkSvg(raw.width, raw.height, BUSINESS_NAME) }])
    .webp(WEBP_PREVIEW)
    .toBuffer();
  const small = await sharp(base.data, { raw }).resize(inside(THUMBNAIL_MAX_SIDE)).raw().toBuffer({ resolveWithObject: true });
  const smallRaw = { width: small.info.width, height: small.info.height, channels: small.info.channels };
  const thumb = await sharp(small.data, { raw: smallRaw })
    .composite([{ input: watermarkSvg(smallRaw.width, smallRaw.height, BUSINESS_NAME) }])
    .webp(WEBP_THUMB)
    .toBuffer();
  const name = path.basename(file, path.extname(file));
  await fs.writeFile(path.join(outDir, `${name}.preview.webp`), preview);
  await fs.writeFile(path.join(outDir, `${name}.thumb.webp`), thumb);
}
