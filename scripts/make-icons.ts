/**
 * Renders the PWA icons (192, 512, 512 maskable, 180 apple-touch) from one SVG with sharp into
 * pwa/public/icons, so no binary files live in the repository. Run by `npm run build`.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const outDir = path.resolve('pwa/public/icons');
const BLUE = '#1e3a8a';

/** The camera glyph; `inset` shrinks it into the maskable safe zone (the inner 80%). */
function svg(size: number, inset: number, rounded: boolean): string {
  const s = size;
  const k = (s * (1 - inset * 2)) / 64;
  const o = s * inset;
  const radius = rounded ? s * 0.22 : 0;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${s}" height="${s}" viewBox="0 0 ${s} ${s}">
<rect width="${s}" height="${s}" rx="${radius}" fill="${BLUE}"/>
<g transform="translate(${o} ${o}) scale(${k})">
<rect x="12" y="20" width="40" height="30" rx="5" fill="none" stroke="#fff" stroke-width="4"/>
<circle cx="32" cy="35" r="8" fill="none" stroke="#fff" stroke-width="4"/>
<rect x="22" y="14" width="14" height="7" rx="2" fill="#fff"/>
<circle cx="45" cy="26" r="2.5" fill="#fbbf24"/></g></svg>`;
}

const targets = [
  { file: 'icon-192.png', size: 192, inset: 0.04, rounded: true },
  { file: 'icon-512.png', size: 512, inset: 0.04, rounded: true },
  { file: 'icon-512-maskable.png', size: 512, inset: 0.14, rounded: false },
  { file: 'apple-touch-icon.png', size: 180, inset: 0.08, rounded: false },
];

fs.mkdirSync(outDir, { recursive: true });
await Promise.all(
  targets.map(({ file, size, inset, rounded }) => sharp(Buffer.from(svg(size, inset, rounded))).png().toFile(path.join(outDir, file))),
);
console.warn(`icons written to ${path.relative(process.cwd(), outDir)}`);
