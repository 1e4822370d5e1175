import sharp, { type Sharp } from 'sharp';
import { escapeHtml } from '../lib/escape';

/**
 * Deterministic images for the demo seed and tests, drawn as SVG and encoded with sharp: no binary
 * fixtures live in the repository.
 */

/** mulberry32: a tiny seeded PRNG, so the same seed always draws the same picture. */
export function random(seed: number): () => number {
  let state = seed >>> 0 || 0x9e3779b9;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The index is always in range, so the element type is exact. */
const pick = <L extends readonly unknown[]>(rand: () => number, list: L): L[number] => list[Math.floor(rand() * list.length)] as L[number];

const BACKDROPS = [
  ['#8ec5fc', '#e0c3fc'],
  ['#a1c4fd', '#c2e9fb'],
  ['#f6d365', '#fda085'],
  ['#84fab0', '#8fd3f4'],
  ['#cfd9df', '#e2ebf0'],
  ['#fbc2eb', '#a6c1ee'],
  ['#5d6d7e', '#aab7b8'],
] as const;
const SKIN = ['#f1c27d', '#e0ac69', '#c68642', '#8d5524', '#ffdbac', '#a0522d'] as const;
const HAIR = ['#2c1b0e', '#4b2e1a', '#090806', '#a56b46', '#e6be8a', '#3b3024'] as const;
const SHIRTS = ['#1f4e79', '#2e7d32', '#c62828', '#6a1b9a', '#ef6c00', '#00838f', '#f5f5f5'] as const;

export interface DemoPhotoOptions {
  seed: number;
  /** Drawn on the picture, e.g. the child's name. */
  label: string;
  width?: number;
  height?: number;
}

/** A friendly school-portrait-like JPEG: gradient backdrop, a smiling figure and a name banner. */
export async function generateDemoPhoto(opts: DemoPhotoOptions): Promise<Buffer> {
  const width = opts.width ?? 900;
  const height = opts.height ?? 1200;
  const rand = random(opts.seed);
  const [from, to] = pick(rand, BACKDROPS);
  const skin = pick(rand, SKIN);
  const hair = pick(rand, HAIR);
  const shirt = pick(rand, SHIRTS);
  const unit = Math.min(width, height);
  const cx = width / 2 + (rand() - 0.5) * width * 0.12;
  const headR = unit * (0.16 + rand() * 0.04);
  const headY = height * 0.42;
  const eyeDx = headR * 0.38;
  const eyeY = headY - headR * 0.08;
  const smile = headR * (0.35 + rand() * 0.15);
  const longHair = rand() > 0.5;
  const fontSize = Math.round(unit * 0.06);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="${rand() > 0.5 ? 1 : 0}" y2="1">
    <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#bg)"/>
  <circle cx="${width * rand()}" cy="${height * 0.2 * rand()}" r="${unit * 0.25}" fill="#ffffff" fill-opacity="0.18"/>
  ${longHair ? `<ellipse cx="${cx}" cy="${headY + headR * 0.5}" rx="${headR * 1.25}" ry="${headR * 1.5}" fill="${hair}"/>` : ''}
  <path d="M ${cx - headR * 2.1} ${height} Q ${cx - headR * 2} ${headY + headR * 1.5} ${cx} ${headY + headR * 1.45}
           Q ${cx + headR * 2} ${headY + headR * 1.5} ${cx + headR * 2.1} ${height} Z" fill="${shirt}"/>
  <rect x="${cx - headR * 0.35}" y="${headY + headR * 0.7}" width="${headR * 0.7}" height="${headR * 0.8}" fill="${skin}"/>
  <circle cx="${cx}" cy="${headY}" r="${headR}" fill="${skin}"/>
  <path d="M ${cx - headR * 1.02} ${headY - headR * 0.15} A ${headR * 1.02} ${headR * 1.05} 0 0 1 ${cx + headR * 1.02} ${headY - headR * 0.15}
           Q ${cx} ${headY - headR * 0.75} ${cx - headR * 1.02} ${headY - headR * 0.15} Z" fill="${hair}"/>
  <circle cx="${cx - eyeDx}" cy="${eyeY}" r="${headR * 0.09}" fill="#2b2b2b"/>
  <circle cx="${cx + eyeDx}" cy="${eyeY}" r="${headR * 0.09}" fill="#2b2b2b"/>
  <path d="M ${cx - smile} ${headY + headR * 0.3} Q ${cx} ${headY + headR * 0.3 + smile * 0.9} ${cx + smile} ${headY + headR * 0.3}"
        stroke="#7a3b2e" stroke-width="${Math.max(2, headR * 0.07)}" fill="none" stroke-linecap="round"/>
  <rect x="0" y="${height - fontSize * 2.2}" width="${width}" height="${fontSize * 2.2}" fill="#000000" fill-opacity="0.45"/>
  <text x="${width / 2}" y="${height - fontSize * 0.75}" text-anchor="middle" font-family="DejaVu Sans, sans-serif"
        font-size="${fontSize}" fill="#ffffff">${escapeHtml(opts.label)}</text>
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 86, mozjpeg: true }).toBuffer();
}

/**
 * A film-grain layer for `generateGrainedPhoto`: grey gaussian noise, made once and shared, since
 * making it costs more than a photo.
 */
export function photoGrain(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 28 } } })
    .raw()
    .toBuffer();
}

/**
 * A camera-sized JPEG (quality 90) for the benchmarks and the renditions' weight: the demo portrait
 * enlarged with `grain` (from `photoGrain` at the same size) blended in, since an enlarged drawing
 * compresses far better than a camera photo and noise brings its file size and decode cost close
 * to a real one's. Resolves the pipeline, so a caller may add metadata before writing it.
 */
export async function generateGrainedPhoto(opts: Required<DemoPhotoOptions>, grain: Buffer): Promise<Sharp> {
  const scene = await generateDemoPhoto({ seed: opts.seed, label: opts.label, width: 1000, height: Math.round((1000 * opts.height) / opts.width) });
  return sharp(scene)
    .resize(opts.width, opts.height)
    .composite([{ input: grain, raw: { width: opts.width, height: opts.height, channels: 3 }, blend: 'soft-light' }])
    .jpeg({ quality: 90 });
}

/** A product mock-up for a price list: a print, frame, canvas or screen on a wall, with its name. */
export async function generateExampleImage(productName: string, seed: number): Promise<Buffer> {
  const width = 800;
  const height = 600;
  const rand = random(seed);
  const name = productName.toLowerCase();
  const [from, to] = pick(rand, BACKDROPS);
  const wall = pick(rand, ['#efe9e1', '#e8eef2', '#f3ece4', '#e9e4f0'] as const);
  const picture = (x: number, y: number, w: number, h: number) => `
    <rect x="${x}" y="${y}" width="${w}" height="${h}" fill="url(#pic)"/>
    <circle cx="${x + w * 0.72}" cy="${y + h * 0.3}" r="${Math.min(w, h) * 0.12}" fill="#fff6c8"/>
    <path d="M ${x} ${y + h} L ${x + w * 0.35} ${y + h * 0.5} L ${x + w * 0.6} ${y + h * 0.8} L ${x + w * 0.8} ${y + h * 0.6} L ${x + w} ${y + h} Z" fill="#3d6b4f"/>`;
  let product: string;
  if (name.includes('frame')) {
    product = `<rect x="230" y="80" width="340" height="360" fill="${pick(rand, ['#5b3a1e', '#222222', '#c9a227'] as const)}"/>
      <rect x="260" y="110" width="280" height="300" fill="#fbfbf8"/>${picture(290, 140, 220, 240)}`;
  } else if (name.includes('canvas')) {
    product = `<rect x="196" y="96" width="420" height="320" fill="#000" fill-opacity="0.18"/>${picture(180, 80, 420, 320)}`;
  } else if (name.includes('digital') || name.includes('download')) {
    product = `<rect x="200" y="90" width="400" height="270" rx="14" fill="#2b2b2b"/>${picture(218, 108, 364, 234)}
      <rect x="370" y="360" width="60" height="50" fill="#444"/><rect x="320" y="405" width="160" height="14" rx="6" fill="#555"/>`;
  } else {
    product = `<rect x="265" y="95" width="270" height="340" fill="#ffffff" stroke="#d0d0d0"/>${picture(280, 110, 240, 310)}`;
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs><linearGradient id="pic" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="100%" height="100%" fill="${wall}"/>
  <rect y="${height * 0.82}" width="${width}" height="${height * 0.18}" fill="#000" fill-opacity="0.06"/>
  ${product}
  <text x="${width / 2}" y="${height - 45}" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="40"
        font-weight="bold" fill="#333333">${escapeHtml(productName)}</text>
</svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 6 }).toBuffer();
}
