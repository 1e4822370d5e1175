import QRCode from 'qrcode';
import sharp from 'sharp';
import { generateDemoPhoto } from './generate';

/**
 * A camera photo of a child holding a QR card, for tests and the ingest benchmark: a pinhole
 * camera looks at the card from `distanceMm` away, the card turned by yaw, pitch and roll, so every
 * module of the code lands where perspective puts it. Grain and a slight blur stand in for the
 * sensor and the lens; no binary fixture is needed.
 */
export interface CardPhotoOptions {
  /** The QR code's text (a flyer's URL or a bare code). */
  text: string;
  seed: number;
  width?: number;
  height?: number;
  /** Camera to card. */
  distanceMm?: number;
  /** What the frame's long side covers at that distance (about an 85 mm lens for a half-length portrait). */
  frameMm?: number;
  /** The printed code with its quiet zone, and the card around it. */
  qrMm: number;
  cardMm: { width: number; height: number };
  /** Where the code's top left corner sits on the card. */
  qrOffsetMm: { x: number; y: number };
  /** Degrees: turned away (yaw), tilted back (pitch), rotated in the picture (roll). */
  yaw?: number;
  pitch?: number;
  roll?: number;
  /** Where the card's centre lands in the frame, as fractions of width and height. */
  at?: { x: number; y: number };
}

type Matrix = number[][];
const multiply = (a: Matrix, b: Matrix): Matrix => a.map((row) => (b[0] ?? []).map((_, j) => row.reduce((sum, value, k) => sum + value * ((b[k] ?? [])[j] ?? 0), 0)));
const rad = (deg: number) => (deg * Math.PI) / 180;

function rotation(yaw: number, pitch: number, roll: number): Matrix {
  const [a, b, c] = [rad(yaw), rad(pitch), rad(roll)];
  const ry = [[Math.cos(a), 0, Math.sin(a)], [0, 1, 0], [-Math.sin(a), 0, Math.cos(a)]];
  const rx = [[1, 0, 0], [0, Math.cos(b), -Math.sin(b)], [0, Math.sin(b), Math.cos(b)]];
  const rz = [[Math.cos(c), -Math.sin(c), 0], [Math.sin(c), Math.cos(c), 0], [0, 0, 1]];
  return multiply(rz, multiply(rx, ry));
}

/** The card as an SVG the size of the frame: the paper and every dark module, each projected exactly. */
function cardSvg(opts: CardPhotoOptions, width: number, height: number): string {
  const distance = opts.distanceMm ?? 3000;
  const focal = (Math.max(width, height) * distance) / (opts.frameMm ?? 1200);
  const r = rotation(opts.yaw ?? 0, opts.pitch ?? 0, opts.roll ?? 0);
  const at = opts.at ?? { x: 0.5, y: 0.62 };
  const shiftX = ((at.x - 0.5) * width * distance) / focal;
  const shiftY = ((at.y - 0.5) * height * distance) / focal;
  const { width: cardW, height: cardH } = opts.cardMm;
  const row = (i: number) => r[i] ?? [0, 0, 0];
  const project = (u: number, v: number): string => {
    // Card coordinates are millimetres from its centre, x right and y down.
    const x = (row(0)[0] ?? 0) * u + (row(0)[1] ?? 0) * v + shiftX;
    const y = (row(1)[0] ?? 0) * u + (row(1)[1] ?? 0) * v + shiftY;
    const z = (row(2)[0] ?? 0) * u + (row(2)[1] ?? 0) * v + distance;
    return `${(width / 2 + (focal * x) / z).toFixed(2)},${(height / 2 + (focal * y) / z).toFixed(2)}`;
  };
  const quad = (u: number, v: number, w: number, h: number, fill: string) =>
    `<polygon points="${project(u, v)} ${project(u + w, v)} ${project(u + w, v + h)} ${project(u, v + h)}" fill="${fill}"/>`;

  const qr = QRCode.create(opts.text, { errorCorrectionLevel: 'M' });
  const count = qr.modules.size;
  const quiet = 2;
  const cell = opts.qrMm / (count + 2 * quiet);
  const left = -cardW / 2 + opts.qrOffsetMm.x + quiet * cell;
  const top = -cardH / 2 + opts.qrOffsetMm.y + quiet * cell;
  let shapes = quad(-cardW / 2, -cardH / 2, cardW, cardH, '#f3f1ec');
  // A few lines of grey "text" under the code, as on a flyer.
  for (let line = 0; line < 4; line++) shapes += quad(-cardW / 2 + 6, opts.qrOffsetMm.y + opts.qrMm - cardH / 2 + 6 + line * 7, cardW * (0.7 - line * 0.1), 3, '#666666');
  for (let y = 0; y < count; y++) {
    for (let x = 0; x < count; x++) {
      if (qr.modules.get(y, x)) shapes += quad(left + x * cell, top + y * cell, cell * 1.02, cell * 1.02, '#1b1b1b');
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${shapes}</svg>`;
}

export async function generateCardPhoto(opts: CardPhotoOptions): Promise<Buffer> {
  const width = opts.width ?? 4000;
  const height = opts.height ?? 3000;
  const scene = await generateDemoPhoto({ seed: opts.seed, label: ' ', width: 1000, height: 750 });
  const grain = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 24 } } })
    .raw()
    .toBuffer();
  const card = await sharp(Buffer.from(cardSvg(opts, width, height))).blur(0.9).png().toBuffer();
  return sharp(scene)
    .resize(width, height)
    .composite([
      { input: card, top: 0, left: 0 },
      { input: grain, raw: { width, height, channels: 3 }, blend: 'soft-light' },
    ])
    .jpeg({ quality: 90 })
    .toBuffer();
}
