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
 * The watermark of one side length as the pixels it covers: where each is (row by row), how much
 * of the photo's own value stays, and what the watermark adds (its colour times its opacity).
 */
interface WatermarkMask {
  side: number;
  xs: Uint16Array;
  ys: Uint16Array;
  keep: Float32Array;
  /** Three per pixel: red, green, blue. */
  add: Float32Array;
}

/**
 * Masks kept, by business name and side. One upload needs three sides (preview, thumbnail, small
 * thumbnail), landscape and portrait alike; the preview's covers about 800,000 pixels (half the square), 16 MB.
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
  const mask = await watermarkMask(Math.max(width, height), text);
  const { xs, ys, keep, add } = mask;
  for (let i = 0; i < xs.length; i++) {
    const y = ys[i] as number;
    if (y >= height) break;
    const x = xs[i] as number;
    if (x >= width) continue;
    const at = (y * width + x) * 3;
    const k = keep[i] as number;
    pixels[at] = (pixels[at] as number) * k + (add[i * 3] as number);
    pixels[at + 1] = (pixels[at + 1] as number) * k + (add[i * 3 + 1] as number);
    pixels[at + 2] = (pixels[at + 2] as number) * k + (add[i * 3 + 2] as number);
  }
}

/**
 * How much of a width × height image the watermark covers: the share of its pixels it touches at
 * all, and its mean opacity over the whole image (0 where it does not touch, up to its full opacity
 * in the lettering). For the benchmark and the tests, which weigh bytes against coverage.
 */
export async function watermarkCoverage(width: number, height: number, text: string): Promise<{ touched: number; opacity: number }> {
  const { xs, ys, keep } = await watermarkMask(Math.max(width, height), text);
  let touched = 0;
  let opacity = 0;
  for (let i = 0; i < xs.length; i++) {
    if ((ys[i] as number) >= height) break;
    if ((xs[i] as number) >= width) continue;
    touched += 1;
    opacity += 1 - (keep[i] as number);
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
  for (let p = 3; p < rgba.length; p += 4) if (rgba[p] !== 0) covered += 1;
  const mask: WatermarkMask = { side, xs: new Uint16Array(covered), ys: new Uint16Array(covered), keep: new Float32Array(covered), add: new Float32Array(covered * 3) };
  let i = 0;
  for (let p = 0; p < side * side; p++) {
    const alpha = (rgba[p * 4 + 3] as number) / 255;
    if (alpha === 0) continue;
    mask.xs[i] = p % side;
    mask.ys[i] = Math.floor(p / side);
    mask.keep[i] = 1 - alpha;
    for (let c = 0; c < 3; c++) mask.add[i * 3 + c] = (rgba[p * 4 + c] as number) * alpha;
    i += 1;
  }
  return mask;
}
