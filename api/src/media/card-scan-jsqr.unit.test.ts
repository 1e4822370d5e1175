import upstream from 'jsqr';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { greyCopy } from './card-scan';
import { generateCardPhoto } from './generate-card';
import jsQR from './jsqr/jsQR.cjs';

/** What the scan gave jsQR before: the grey bytes as opaque RGBA. */
function rgbaOf(grey: Uint8Array | Uint8ClampedArray): Uint8ClampedArray {
  const rgba = new Uint8ClampedArray(grey.length * 4);
  for (let i = 0; i < grey.length; i++) {
    rgba[i * 4] = rgba[i * 4 + 1] = rgba[i * 4 + 2] = grey[i] as number;
    rgba[i * 4 + 3] = 255;
  }
  return rgba;
}

/** The published jsQR on RGBA and the patched copy on grey: the same bits, and the whole result (text and every point found). */
function bothRead(grey: Uint8ClampedArray, width: number, height: number) {
  // The bits first: jsQR's own binariser on RGBA against the patched one on grey.
  const bits = jsQR.binarize(rgbaOf(grey), width, height, false).binarized;
  const greyBits = jsQR.binarizeGrey(grey, width, height);
  expect([greyBits.width, greyBits.height], `${width}x${height}`).toEqual([bits.width, bits.height]);
  expect(Buffer.from(greyBits.data).equals(Buffer.from(bits.data)), `${width}x${height}: the same bits`).toBe(true);
  const before = upstream(rgbaOf(grey), width, height, { inversionAttempts: 'dontInvert' });
  const after = jsQR.jsQRGrey(grey, width, height);
  expect(JSON.stringify(after), `${width}x${height}`).toBe(JSON.stringify(before));
  return after;
}

function crop(grey: { data: Uint8Array; width: number }, left: number, top: number, width: number, height: number): Uint8ClampedArray {
  const out = new Uint8ClampedArray(width * height);
  for (let y = 0; y < height; y++) out.set(grey.data.subarray((top + y) * grey.width + left, (top + y) * grey.width + left + width), y * width);
  return out;
}

describe("the card scan's copy of jsQR (api/src/media/jsqr/README.md)", () => {
  it('reads grey as the published jsQR reads the same grey as RGBA: the same codes at the same points, and nothing where it finds nothing', async () => {
    const photo = await generateCardPhoto({ text: 'http://127.0.0.1:8095/code/TNPX-SBJC', seed: 7, width: 1600, height: 1200, distanceMm: 1600, frameMm: 1200, qrMm: 85, cardMm: { width: 95, height: 139 }, qrOffsetMm: { x: 5, y: 5 }, yaw: 20, pitch: 5, roll: -10 });
    const base = await sharp(photo).resize(1280, 1280, { fit: 'inside' }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    const grey = greyCopy(base.data, { width: base.info.width, height: base.info.height, channels: base.info.channels });
    let read = 0;
    // Windows of every remainder modulo jsQR's 8-pixel regions, over the card and beside it: the
    // right-hand and bottom regions that run past the image are where a copy would most easily differ.
    for (let i = 0; i < 40; i++) {
      const width = 97 + i * 13;
      const height = 83 + ((i * 29) % 400);
      const left = Math.min(grey.width - width, 260 + ((i * 37) % 200));
      const top = Math.min(grey.height - height, 330 + ((i * 17) % 160));
      if (bothRead(crop(grey, left, top, width, height), width, height)) read += 1;
    }
    expect(read).toBeGreaterThan(5);
    // Whole frames, and images too small for a region.
    bothRead(crop(grey, 0, 0, grey.width, grey.height), grey.width, grey.height);
    let seed = 1;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (let i = 0; i < 60; i++) {
      const width = 1 + Math.floor(random() * (i < 20 ? 20 : 200));
      const height = 1 + Math.floor(random() * (i < 20 ? 20 : 200));
      const noise = new Uint8ClampedArray(width * height);
      // Noise, or flat areas that take jsQR's low-contrast rule, or stripes that look like runs.
      for (let p = 0; p < noise.length; p++) noise[p] = i % 3 === 0 ? random() * 256 : i % 3 === 1 ? 120 + random() * 16 : (p % width) % 7 < 3 ? 25 : 225;
      bothRead(noise, width, height);
    }
  }, 60_000);
});
