import { WATERMARK_OPACITY } from '../../contract/constants';

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c);

/**
 * The business name tiled diagonally over the whole image, as an SVG the size of the image (D9).
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
  const label = escapeXml(text);
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
