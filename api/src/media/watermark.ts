import sharp from 'sharp';
import { escapeHtml } from '../lib/escape';
import { WATERMARK_OPACITY } from '../../contract/constants';


/**
 * The business name tiled diagonally over the whole image, as an SVG the size of the image
 * (docs/images.md, "The watermark").
 * White at WATERMARK_OPACITY with a faint dark outline, so it reads on light and dark photos alike.
 * A brick pattern rotated -30° covers every corner, so cropping cannot remove it.
 */
export function watermarkSvg(width: number, height: number, text: string): Buffer {
  const fontSize = Math.max(10, Math.round(Math.max(width, height) / 16));
  // DejaVu Sans Bold averages ~0.68 em per character; the estimate only sets the tile spacing.
  const textWidth = Math.ceil(text.length * fontSize * 0.68);
  const tileW = textWidth + fontSize * 2;
  const tileH = Math.round(fontSize * 3.4);
  const stroke = Math.max(0.6, fontSize / 28).toFixed(2);
  const label = escapeHtml(text);
  const row = (x: number, y: number) => `<text x="${x}" y="${y}">${label}</text>`;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs><pattern id="wm" patternUnits="userSpaceOnUse" width="${tileW}" height="${tileH}" patternTransform="rotate(-30)">` +
    `<g font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="${fontSize}" fill="#ffffff" fill-opacity="${WATERMARK_OPACITY}" ` +
    `stroke="#000000" stroke-opacity="0.14" stroke-width="${stroke}">` +
    row(0, fontSize) +
    row(Math.round(tileW / 2), Math.round(fontSize + tileH / 2)) +
    row(Math.round(-tileW / 2), Math.round(fontSize + tileH / 2)) +
    `</g></pattern></defs><rect width="100%" height="100%" fill="url(#wm)"/></svg>`;
  return Buffer.from(svg);
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
 * thumbnail), landscape and portrait alike; the preview's covers about 330,000 pixels, 4 MB.
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
 * composites) touches only the fifth of the pixels the text covers; libvips' general composite
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
