import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { PREVIEW_MAX_SIDE, SMALL_THUMBNAIL_MAX_SIDE, THUMBNAIL_MAX_SIDE } from '../../contract/constants';
import { alphaPng, gif, solidJpeg, splitJpeg } from '../../test/images';
import { renderPhoto, renderSmallThumbnail } from './renditions';

const BUSINESS = 'Test Studio';

async function meta(data: Buffer) {
  return sharp(data).metadata();
}

/** Mean absolute difference per channel over a region of two same-size RGB images. */
async function regionDiff(a: Buffer, b: Buffer, region: { left: number; top: number; width: number; height: number }) {
  const read = (img: Buffer) => sharp(img).extract(region).removeAlpha().raw().toBuffer();
  const [pa, pb] = await Promise.all([read(a), read(b)]);
  let sum = 0;
  for (let i = 0; i < pa.length; i++) sum += Math.abs((pa[i] ?? 0) - (pb[i] ?? 0));
  return sum / pa.length;
}

/** Per-channel means of a region (stats() would ignore the extract and read the whole input). */
async function channelMeans(img: Buffer, region: { left: number; top: number; width: number; height: number }): Promise<number[]> {
  const { data, info } = await sharp(img).extract(region).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const sums = new Array<number>(info.channels).fill(0);
  data.forEach((value, i) => {
    sums[i % info.channels] = (sums[i % info.channels] ?? 0) + value;
  });
  return sums.map((sum) => sum / (data.length / info.channels));
}

describe('renderPhoto', () => {
  it('makes a 320 small thumbnail beside the 400 one, watermarked, smaller on the wire', async () => {
    const source = await solidJpeg(3000, 2000, '#204060');
    const { thumbnail, smallThumbnail } = await renderPhoto(source, BUSINESS);
    expect([smallThumbnail.width, smallThumbnail.height]).toEqual([SMALL_THUMBNAIL_MAX_SIDE, 214]);
    expect(await meta(smallThumbnail.data)).toMatchObject({ format: 'webp', width: 320, height: 214 });
    expect(smallThumbnail.data.length).toBeLessThan(thumbnail.data.length);
    expect(smallThumbnail.etag).not.toBe(thumbnail.etag);
    // The watermark is in its pixels too: it differs from the plain photo at the same size.
    const plain = await sharp(source).resize(320, 320, { fit: 'inside' }).webp({ quality: 64 }).toBuffer();
    expect(await regionDiff(smallThumbnail.data, plain, { left: 0, top: 0, width: 320, height: 213 })).toBeGreaterThan(2);
  });

  it('keeps a copy of the clean decode for the card scan, before any watermark, and only when asked', async () => {
    const source = await solidJpeg(1600, 1200, '#808080');
    const clean = await sharp(source)
      .resize({ width: PREVIEW_MAX_SIDE, height: PREVIEW_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { scanImage } = await renderPhoto(source, BUSINESS, { cardScan: () => true });
    expect(scanImage).toMatchObject({ width: clean.info.width, height: clean.info.height, channels: clean.info.channels });
    expect(Buffer.from(scanImage?.data ?? []).equals(clean.data)).toBe(true);
    // Shared memory: the scan's thread reads it without a copy.
    expect(scanImage?.data.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect((await renderPhoto(source, BUSINESS)).scanImage).toBeNull();
  });

  it('renders the same small thumbnail alone for a photo stored before it existed', async () => {
    const source = await splitJpeg(1200, 800, 6);
    const [{ smallThumbnail }, alone] = await Promise.all([renderPhoto(source, BUSINESS), renderSmallThumbnail(source, BUSINESS)]);
    expect([alone.width, alone.height]).toEqual([smallThumbnail.width, smallThumbnail.height]);
    expect([alone.width, alone.height]).toEqual([214, 320]);
    expect(alone.data.equals(smallThumbnail.data)).toBe(true);
    expect(alone.etag).toBe(smallThumbnail.etag);
  });

  it('makes a 1280 preview and a 400 thumbnail in WebP from a large landscape photo', async () => {
    const { preview, thumbnail } = await renderPhoto(await solidJpeg(3000, 2000), BUSINESS);
    expect([preview.width, preview.height]).toEqual([PREVIEW_MAX_SIDE, 853]);
    expect([thumbnail.width, thumbnail.height]).toEqual([THUMBNAIL_MAX_SIDE, 267]);
    const [pm, tm] = await Promise.all([meta(preview.data), meta(thumbnail.data)]);
    expect(pm).toMatchObject({ format: 'webp', width: 1280, height: 853 });
    expect(tm).toMatchObject({ format: 'webp', width: 400, height: 267 });
    expect(preview.etag).toMatch(/^[a-f0-9]{32}$/);
    expect(preview.etag).not.toBe(thumbnail.etag);
  });

  it('limits the longest side of a portrait photo', async () => {
    const { preview, thumbnail } = await renderPhoto(await solidJpeg(1500, 3000), BUSINESS);
    expect([preview.width, preview.height]).toEqual([640, 1280]);
    expect([thumbnail.width, thumbnail.height]).toEqual([200, 400]);
  });

  it('never upscales a small image', async () => {
    const { preview, thumbnail } = await renderPhoto(await solidJpeg(300, 200), BUSINESS);
    expect([preview.width, preview.height]).toEqual([300, 200]);
    expect([thumbnail.width, thumbnail.height]).toEqual([300, 200]);
  });

  it('applies the EXIF orientation and strips all metadata', async () => {
    // Stored 600x400 with the red half on the left; orientation 6 shows it rotated clockwise.
    const source = await splitJpeg(600, 400, 6);
    expect((await meta(source)).exif).toBeDefined();
    const { preview, thumbnail } = await renderPhoto(source, BUSINESS);
    expect([preview.width, preview.height]).toEqual([400, 600]);
    expect([thumbnail.width, thumbnail.height]).toEqual([267, 400]);
    const [upperRed = 0, , upperBlue = 0] = await channelMeans(preview.data, { left: 150, top: 50, width: 100, height: 100 });
    const [lowerRed = 0, , lowerBlue = 0] = await channelMeans(preview.data, { left: 150, top: 450, width: 100, height: 100 });
    expect(upperRed).toBeGreaterThan(upperBlue + 100);
    expect(lowerBlue).toBeGreaterThan(lowerRed + 100);
    for (const data of [preview.data, thumbnail.data]) {
      const m = await meta(data);
      expect(m.exif).toBeUndefined();
      expect(m.icc).toBeUndefined();
      expect(m.xmp).toBeUndefined();
      expect(m.orientation).toBeUndefined();
    }
  });

  it('burns the watermark into the pixels across the whole preview', async () => {
    const source = await solidJpeg(2400, 1600, '#204060');
    const { preview } = await renderPhoto(source, BUSINESS);
    const plain = await sharp(source).resize(PREVIEW_MAX_SIDE, PREVIEW_MAX_SIDE, { fit: 'inside' }).webp({ quality: 80 }).toBuffer();
    const quadrant = (left: number, top: number) => ({ left, top, width: 640, height: 426 });
    for (const region of [quadrant(0, 0), quadrant(640, 0), quadrant(0, 427), quadrant(640, 427)]) {
      expect(await regionDiff(preview.data, plain, region)).toBeGreaterThan(4);
    }
    // White at ~30%: the marked preview is brighter than the plain resize on a dark photo.
    const mean = async (img: Buffer) => (await sharp(img).stats()).channels[0]?.mean ?? 0;
    expect(await mean(preview.data)).toBeGreaterThan((await mean(plain)) + 3);
  });

  it('handles PNG with transparency and GIF (first frame of an animation)', async () => {
    const png = await renderPhoto(await alphaPng(500, 300), BUSINESS);
    expect((await meta(png.preview.data)).format).toBe('webp');
    expect([png.thumbnail.width, png.thumbnail.height]).toEqual([400, 240]);
    const animated = await renderPhoto(await gif(320, 240, 3), BUSINESS);
    expect([animated.preview.width, animated.preview.height]).toEqual([320, 240]);
    expect((await meta(animated.preview.data)).pages ?? 1).toBe(1);
  });
});
