import sharp from 'sharp';
import { escapeHtml } from '../lib/escape';
import { WATERMARK_OPACITY, WATERMARK_SHADOW_OPACITY } from '../../contract/constants';

/** The lettering's height, as a share of the image's longer side. */
const FONT_SHARE = 1 / 7;
/** The rows' spacing, in ems (each tile holds two rows, bricked). */
const TILE_HEIGHT_EM = 4;
/** How soft the lettering's edges are: the blur's standard deviation, in ems. */
const BLUR_EM = 0.09;
/** How far the shadow sits below and right of the lettering, in ems. */
const SHADOW_OFFSET_EM = 0.1;

/**
 * The business name tiled diagonally over the whole image, as an SVG the size of the image
 * (docs/images.md, "The watermark").
 * White lettering at WATERMARK_OPACITY over a black shadow at WATERMARK_SHADOW_OPACITY set off
 * down and right: the white reads on dark photos, the shadow on light ones, and on mid tones, where
 * the two would cancel out if they lay on top of each other, the offset leaves a light and a dark
 * edge to every letter. Each layer is blurred on its own, so no edge is hard: a hard dark outline made previews
 * five times as heavy as their clean encode. A brick pattern rotated -30° covers every corner, so
 * cropping cannot remove it. The layers are drawn over a margin round the image, so the blur near
 * its edges is the same whatever its size (the cached square's corner equals a smaller image's).
 */
export function watermarkSvg(width: number, height: number, text: string): Buffer {
  const fontSize = Math.max(10, Math.round(Math.max(width, height) * FONT_SHARE));
  // DejaVu Sans Bold averages ~0.6 em per character; the estimate only sets the tile spacing.
  const textWidth = Math.ceil(text.length * fontSize * 0.62);
  const tileW = textWidth + fontSize;
  const tileH = Math.round(fontSize * TILE_HEIGHT_EM);
  const label = escapeHtml(text);
  const rows =
    `<text x="0" y="${fontSize}">${label}</text>` +
    `<text x="${Math.round(tileW / 2)}" y="${Math.round(fontSize + tileH / 2)}">${label}</text>` +
    `<text x="${Math.round(-tileW / 2)}" y="${Math.round(fontSize + tileH / 2)}">${label}</text>`;
  const pattern = (id: string, fill: string, opacity: number) =>
    `<pattern id="${id}" patternUnits="userSpaceOnUse" width="${tileW}" height="${tileH}" patternTransform="rotate(-30)">` +
    `<g font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="${fontSize}" fill="${fill}" fill-opacity="${opacity}">${rows}</g></pattern>`;
  const margin = fontSize;
  const area = `x="${-margin}" y="${-margin}" width="${width + 2 * margin}" height="${height + 2 * margin}"`;
  const offset = (SHADOW_OFFSET_EM * fontSize).toFixed(2);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><defs>` +
    pattern('shadow', '#000000', WATERMARK_SHADOW_OPACITY) +
    pattern('letters', '#ffffff', WATERMARK_OPACITY) +
    `<filter id="soft" filterUnits="userSpaceOnUse" ${area}><feGaussianBlur stdDeviation="${(BLUR_EM * fontSize).toFixed(2)}"/></filter>` +
    `</defs><rect ${area} fill="url(#shadow)" filter="url(#soft)" transform="translate(${offset} ${offset})"/><rect ${area} fill="url(#letters)" filter="url(#soft)"/></svg>`;
  return Buffer.from(svg);
}

/**
 * The watermark of a width × height image as a PNG to composite over it, for a photo with
 * transparency (which libvips composites): the square of the image's longer side, cut to the
 * image, as `watermarkInPlace` blends it. An SVG of the image's own size would not do: its blur
 * fades towards the canvas's edges, where the square's goes on.
 */
export function watermarkOverlay(width: number, height: number, text: string): Promise<Buffer> {
  const side = Math.max(width, height);
  return sharp(watermarkSvg(side, side, text)).extract({ left: 0, top: 0, width, height }).png({ compressionLevel: 1 }).toBuffer();
}

/**
 * The watermark of one side length as the pixels it covers, row by row in runs of neighbouring
 * pixels, with two 8.8 fixed-point numbers a pixel: how much of the photo's own value stays, and
 * what the watermark adds. White lettering over a black shadow makes every covered pixel a grey,
 * so one value serves all three channels.
 */
interface WatermarkMask {
  side: number;
  /** Where each row's runs start in `runs`, and (last) where they end: side + 1 entries. */
  rowRuns: Uint32Array;
  /** Three numbers a run: its first x, its length, the index of its first pixel in `keep` and `add`. */
  runs: Uint32Array;
  /** 256 × the share of the photo's value that stays. */
  keep: Uint16Array;
  /** 256 × the grey the watermark adds (its value times its opacity), capped so no blend passes 255. */
  add: Uint16Array;
}

/**
 * Masks kept, by business name and side. One upload needs three sides (preview, thumbnail, small
 * thumbnail), landscape and portrait alike; the preview's covers about 800,000 pixels (half the square), about 3.5 MB.
 */
const CACHED_MASKS = 8;
const masks = new Map<string, Promise<WatermarkMask>>();

/**
 * Blends the watermark into the photo's raw sRGB pixels (three channels), in the buffer itself:
 * an upload's renditions are each cut from clean pixels first and then marked, so no rendition
 * needs a copy of its pixels (the preview's are 5 MB).
 *
 * The SVG is rasterised once per business name and side, as a square of side max(width, height):
 * its pattern is anchored at the top-left corner and its size depends only on the longer side, so
 * a width × height image's watermark is exactly the square's top-left corner. Rendering the SVG
 * text for every photo at every size was half the cost of ingest. The blend ("over", as libvips
 * composites) touches only the half of the pixels the lettering covers; libvips' general composite
 * converts every pixel to floating point and back, which cost more than the preview's encoding.
 */
export async function watermarkInPlace(pixels: Buffer, width: number, height: number, text: string): Promise<void> {
  const { rowRuns, runs, keep, add } = await watermarkMask(Math.max(width, height), text);
  // Integer arithmetic over runs: two bytes of mask a pixel instead of twenty, no per-pixel bounds
  // checks, and the same result as libvips' composite within one level (docs/images.md, "The watermark").
  for (let y = 0; y < height; y++) {
    const rowStart = y * width;
    const end = rowRuns[y + 1] as number;
    for (let r = rowRuns[y] as number; r < end; r++) {
      const x = runs[r * 3] as number;
      if (x >= width) break;
      const length = Math.min(runs[r * 3 + 1] as number, width - x);
      let m = runs[r * 3 + 2] as number;
      let at = (rowStart + x) * 3;
      for (let j = 0; j < length; j++) {
        const k = keep[m] as number;
        const a = add[m] as number;
        pixels[at] = ((pixels[at] as number) * k + a) >> 8;
        pixels[at + 1] = ((pixels[at + 1] as number) * k + a) >> 8;
        pixels[at + 2] = ((pixels[at + 2] as number) * k + a) >> 8;
        m += 1;
        at += 3;
      }
    }
  }
}

/**
 * How much of a width × height image the watermark covers: the share of its pixels it touches at
 * all, and its mean opacity over the whole image (0 where it does not touch, up to its full opacity
 * in the lettering). For the benchmark and the tests, which weigh bytes against coverage.
 */
export async function watermarkCoverage(width: number, height: number, text: string): Promise<{ touched: number; opacity: number }> {
  const { rowRuns, runs, keep } = await watermarkMask(Math.max(width, height), text);
  let touched = 0;
  let opacity = 0;
  for (let y = 0; y < height; y++) {
    for (let r = rowRuns[y] as number; r < (rowRuns[y + 1] as number); r++) {
      const x = runs[r * 3] as number;
      if (x >= width) break;
      const length = Math.min(runs[r * 3 + 1] as number, width - x);
      const first = runs[r * 3 + 2] as number;
      touched += length;
      for (let m = first; m < first + length; m++) opacity += 1 - (keep[m] as number) / 256;
    }
  }
  return { touched: touched / (width * height), opacity: opacity / (width * height) };
}

function watermarkMask(side: number, text: string): Promise<WatermarkMask> {
  const key = `${side}\u0000${text}`;
  let mask = masks.get(key);
  if (mask) {
    // Most recently used last, so the oldest is dropped first.
    masks.delete(key);
  } else {
    mask = rasterise(side, text);
    // A failed rendering is not kept: the next photo tries again.
    mask.catch(() => masks.delete(key));
    if (masks.size >= CACHED_MASKS) masks.delete(masks.keys().next().value as string);
  }
  masks.set(key, mask);
  return mask;
}

async function rasterise(side: number, text: string): Promise<WatermarkMask> {
  const rgba = await sharp(watermarkSvg(side, side, text)).ensureAlpha().raw().toBuffer();
  let covered = 0;
  let runCount = 0;
  for (let p = 0; p < side * side; p++) {
    if (rgba[p * 4 + 3] === 0) continue;
    covered += 1;
    if (p % side === 0 || rgba[(p - 1) * 4 + 3] === 0) runCount += 1;
  }
  const mask: WatermarkMask = { side, rowRuns: new Uint32Array(side + 1), runs: new Uint32Array(runCount * 3), keep: new Uint16Array(covered), add: new Uint16Array(covered) };
  let i = 0;
  let run = 0;
  for (let y = 0; y < side; y++) {
    mask.rowRuns[y] = run;
    for (let x = 0; x < side; x++) {
      const p = (y * side + x) * 4;
      const alpha = (rgba[p + 3] as number) / 255;
      if (alpha === 0) continue;
      if (x === 0 || rgba[p - 1] === 0) {
        mask.runs[run * 3] = x;
        mask.runs[run * 3 + 2] = i;
        run += 1;
      }
      mask.runs[(run - 1) * 3 + 1] = (mask.runs[(run - 1) * 3 + 1] as number) + 1;
      // The lettering is white and its shadow black, so red, green and blue are one grey.
      const grey = ((rgba[p] as number) + (rgba[p + 1] as number) + (rgba[p + 2] as number)) / 3;
      const keep = Math.round((1 - alpha) * 256);
      // Never past 255 × 256 + 255, so a blended value never wraps round past 255.
      mask.keep[i] = keep;
      mask.add[i] = Math.min(Math.round(grey * alpha * 256), 255 * 256 + 255 - 255 * keep);
      i += 1;
    }
  }
  mask.rowRuns[side] = run;
  return mask;
}
