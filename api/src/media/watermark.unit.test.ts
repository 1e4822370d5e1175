import { describe, expect, it } from 'vitest';
import sharp, { type Channels, type WebpOptions } from 'sharp';
import { PREVIEW_MAX_SIDE, SMALL_THUMBNAIL_MAX_SIDE, THUMBNAIL_MAX_SIDE } from '../../contract/constants';
import { generateDemoPhoto, generateGrainedPhoto, photoGrain } from './generate';
import { DECODE_OPTIONS } from './image-check';
import { renderPhoto, WEBP_PREVIEW, WEBP_SMALL_THUMB, WEBP_THUMB, type PhotoRenditions } from './renditions';
import { watermarkCoverage, watermarkInPlace, watermarkOverlay, watermarkSvg } from './watermark';

const BUSINESS = 'Lesedi School Photos';
type Raw = { width: number; height: number; channels: Channels };
const inside = (side: number) => ({ width: side, height: side, fit: 'inside', withoutEnlargement: true }) as const;

/**
 * The renditions as they were made before the watermark was cached: the same decode and resizes,
 * and the SVG rendered at each rendition's size and composited by libvips. Without a business
 * name: the same renditions with no watermark at all.
 */
async function renderWithSvgPerPhoto(input: Buffer, businessName: string | null) {
  const shrink = async (data: Buffer, raw: Raw, side: number) => {
    const out = await sharp(data, { raw }).resize(inside(side)).raw().toBuffer({ resolveWithObject: true });
    return { data: out.data, raw: { width: out.info.width, height: out.info.height, channels: out.info.channels } };
  };
  const encode = (data: Buffer, raw: Raw, webp: WebpOptions) =>
    (businessName === null ? sharp(data, { raw }) : sharp(data, { raw }).composite([{ input: watermarkSvg(raw.width, raw.height, businessName), top: 0, left: 0 }]))
      .webp(webp)
      .toBuffer();
  const base = await sharp(input, DECODE_OPTIONS).autoOrient().resize(inside(PREVIEW_MAX_SIDE)).toColourspace('srgb').raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  const raw = { width: base.info.width, height: base.info.height, channels: base.info.channels };
  const thumb = await shrink(base.data, raw, THUMBNAIL_MAX_SIDE);
  const small = await shrink(thumb.data, thumb.raw, SMALL_THUMBNAIL_MAX_SIDE);
  return {
    preview: await encode(base.data, raw, WEBP_PREVIEW),
    thumbnail: await encode(thumb.data, thumb.raw, WEBP_THUMB),
    smallThumbnail: await encode(small.data, small.raw, WEBP_SMALL_THUMB),
  };
}

async function pixels(webp: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(webp).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Mean absolute difference per channel value, and the share of values more than 16 apart. */
async function difference(a: Buffer, b: Buffer): Promise<{ mean: number; far: number }> {
  const [pa, pb] = await Promise.all([pixels(a), pixels(b)]);
  expect([pa.width, pa.height]).toEqual([pb.width, pb.height]);
  let sum = 0;
  let far = 0;
  for (let i = 0; i < pa.data.length; i++) {
    const d = Math.abs((pa.data[i] as number) - (pb.data[i] as number));
    sum += d;
    if (d > 16) far += 1;
  }
  return { mean: sum / pa.data.length, far: far / pa.data.length };
}

/** Luma of each pixel of a decoded rendition. */
async function luma(webp: Buffer): Promise<Float64Array> {
  const { data } = await pixels(webp);
  const out = new Float64Array(data.length / 3);
  for (let p = 0; p < out.length; p++) out[p] = 0.299 * (data[p * 3] as number) + 0.587 * (data[p * 3 + 1] as number) + 0.114 * (data[p * 3 + 2] as number);
  return out;
}

const plainPhoto = (colour: string) => sharp({ create: { width: 3000, height: 2000, channels: 3, background: colour } }).jpeg({ quality: 92 }).toBuffer();

/** The renditions of `photo` as they are stored, and the same pixels encoded without the watermark. */
async function markedAndClean(photo: Buffer) {
  const [marked, clean] = await Promise.all([renderPhoto(photo, BUSINESS), renderWithSvgPerPhoto(photo, null)]);
  return { marked, clean };
}

describe('the watermark', () => {
  for (const [label, width, height] of [
    ['landscape', 3000, 2000],
    ['portrait', 2000, 3000],
  ] as const) {
    it(`looks as it did when its SVG was rendered for every photo (${label})`, async () => {
      const photo = await generateDemoPhoto({ seed: 7, label: 'Thato Molefe', width, height });
      const [now, before, bare] = await Promise.all([renderPhoto(photo, BUSINESS), renderWithSvgPerPhoto(photo, BUSINESS), renderWithSvgPerPhoto(photo, null)]);
      for (const kind of ['preview', 'thumbnail', 'smallThumbnail'] as const) {
        const { mean, far } = await difference(now[kind].data, before[kind]);
        // Lossy WebP spreads the odd level of difference in its input into small ones all over,
        // more so in the small thumbnail's stronger compression: under two levels on average and
        // almost no value far off, where leaving the watermark out puts a tenth of them far off.
        const missing = await difference(bare[kind], before[kind]);
        expect(mean, kind).toBeLessThan(2);
        expect(far, kind).toBeLessThan(0.002);
        expect(missing.far, kind).toBeGreaterThan(0.05);
      }
    });
  }

  it('blends exactly as libvips composites the watermark (the alpha path), for any size up to the cached square', async () => {
    for (const [width, height] of [
      [400, 267],
      [267, 400],
      [320, 320],
      [1280, 853],
    ] as const) {
      const photo = await sharp({ create: { width, height, channels: 3, background: '#6a8caf' } }).raw().toBuffer();
      const ours = Buffer.from(photo);
      await watermarkInPlace(ours, width, height, BUSINESS);
      const theirs = await sharp(photo, { raw: { width, height, channels: 3 } })
        .composite([{ input: await watermarkOverlay(width, height, BUSINESS), top: 0, left: 0 }])
        .removeAlpha()
        .raw()
        .toBuffer();
      let off = 0;
      for (let i = 0; i < ours.length; i++) if (Math.abs((ours[i] as number) - (theirs[i] as number)) > 1) off += 1;
      expect(off / ours.length, `${width}x${height}`).toBeLessThan(0.0005);
    }
  });

  it('stays readable on light, mid-tone and dark photos', async () => {
    // White, light grey, the mid tones where white lettering and a shadow lying right under it
    // would cancel out, dark grey and black.
    for (const colour of ['#ffffff', '#f4f4f4', '#aeaeae', '#969696', '#646464', '#161616', '#000000']) {
      const renditions: PhotoRenditions = await renderPhoto(await plainPhoto(colour), BUSINESS);
      for (const kind of ['preview', 'thumbnail', 'smallThumbnail'] as const) {
        const values = await luma(renditions[kind].data);
        const sorted = Float64Array.from(values).sort();
        const background = sorted[Math.floor(sorted.length / 2)] as number;
        // The lettering: pixels clearly off the photo's own tone, lighter where the white lies
        // and darker where the shadow does. It is soft by design (docs/images.md, "The
        // watermark"): its strongest pixels stand some 20 levels off on mid tones, where white and
        // shadow partly cancel, and 40 to 60 on light and dark ones.
        let marked = 0;
        let strongest = 0;
        for (const v of values) {
          if (Math.abs(v - background) >= 12) marked += 1;
          strongest = Math.max(strongest, Math.abs(v - background));
        }
        expect(marked / values.length, `${colour} ${kind}`).toBeGreaterThan(0.04);
        expect(strongest, `${colour} ${kind}`).toBeGreaterThanOrEqual(20);
      }
    }
  });

  it('weighs at most 1.5 times the clean encode on a grained, photo-like picture, and marks every part of it', async () => {
    const grain = await photoGrain(4000, 3000);
    const photo = await (await generateGrainedPhoto({ seed: 1001, label: 'Student 2', width: 4000, height: 3000 }, grain)).toBuffer();
    const { marked, clean } = await markedAndClean(photo);
    // docs/images.md, "The watermark": the preview and the thumbnail at most 1.5 times as heavy.
    for (const kind of ['preview', 'thumbnail'] as const) {
      expect(marked[kind].data.length / clean[kind].length, kind).toBeLessThanOrEqual(1.5);
    }
    // Yet it covers the photo: in every cell of a 4 x 4 grid of the preview, more than one pixel
    // in twenty is visibly changed (luma 12 levels or more off the clean encode).
    const [a, b] = await Promise.all([luma(marked.preview.data), luma(clean.preview)]);
    const { width, height } = marked.preview;
    const cellW = Math.floor(width / 4);
    const cellH = Math.floor(height / 4);
    for (let row = 0; row < 4; row++) {
      for (let col = 0; col < 4; col++) {
        let far = 0;
        for (let y = row * cellH; y < (row + 1) * cellH; y++) {
          for (let x = col * cellW; x < (col + 1) * cellW; x++) {
            if (Math.abs((a[y * width + x] as number) - (b[y * width + x] as number)) >= 12) far += 1;
          }
        }
        expect(far / (cellW * cellH), `cell ${row},${col}`).toBeGreaterThan(0.05);
      }
    }
    const coverage = await watermarkCoverage(marked.preview.width, marked.preview.height, BUSINESS);
    expect(coverage.touched).toBeGreaterThan(0.33);
  });
});
