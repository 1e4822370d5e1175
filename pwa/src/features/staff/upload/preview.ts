/**
 * Client-side previews of selected photos: longest side scaled to 200 px, JPEG at
 * 0.85, with the business name tiled diagonally across the image in white at 30%. The drawing
 * takes any 2D context, so it is tested with a recording fake instead of a real canvas.
 */
import { CLIENT_PREVIEW_JPEG_QUALITY, CLIENT_PREVIEW_MAX_SIDE, WATERMARK_OPACITY } from '@contract/constants';

/** The part of CanvasRenderingContext2D the preview uses. */
export interface PreviewContext {
  globalAlpha: number;
  fillStyle: string | CanvasGradient | CanvasPattern;
  font: string;
  textAlign: CanvasTextAlign;
  textBaseline: CanvasTextBaseline;
  save(): void;
  restore(): void;
  translate(x: number, y: number): void;
  rotate(angle: number): void;
  fillText(text: string, x: number, y: number): void;
  measureText(text: string): { width: number };
  drawImage(image: CanvasImageSource, dx: number, dy: number, dw: number, dh: number): void;
}

export const WATERMARK_ANGLE = -Math.PI / 4;

/** Fits width x height inside max x max, never enlarging. */
export function previewSize(width: number, height: number, max = CLIENT_PREVIEW_MAX_SIDE): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(width, height, 1));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Repeats `text` on a rotated grid that covers the whole image whatever its shape. */
export function drawWatermark(ctx: PreviewContext, width: number, height: number, text: string): void {
  const fontSize = Math.max(10, Math.round(Math.min(width, height) / 9));
  ctx.save();
  ctx.globalAlpha = WATERMARK_OPACITY;
  ctx.fillStyle = '#ffffff';
  ctx.font = `600 ${fontSize}px sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.translate(width / 2, height / 2);
  ctx.rotate(WATERMARK_ANGLE);
  const stepX = ctx.measureText(text).width + fontSize * 2;
  const stepY = fontSize * 3;
  // The rotated grid must reach every corner: half the diagonal in each direction.
  const reach = Math.hypot(width, height) / 2;
  for (let y = -reach; y <= reach; y += stepY) {
    // Alternate rows are offset half a step so the text reads as a lattice, not columns.
    const offset = Math.round((y + reach) / stepY) % 2 === 0 ? 0 : stepX / 2;
    for (let x = -reach - offset; x <= reach; x += stepX) ctx.fillText(text, x, y);
  }
  ctx.restore();
}

export function drawPreview(ctx: PreviewContext, image: CanvasImageSource, width: number, height: number, text: string): void {
  ctx.drawImage(image, 0, 0, width, height);
  drawWatermark(ctx, width, height, text);
}

/** Decodes a file and answers its watermarked 200 px JPEG preview. */
export async function makePreview(file: Blob, text: string): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  try {
    const size = previewSize(bitmap.width, bitmap.height);
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('This browser cannot draw previews');
    drawPreview(ctx, bitmap, size.width, size.height, text);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('Could not encode the preview'))), 'image/jpeg', CLIENT_PREVIEW_JPEG_QUALITY),
    );
  } finally {
    bitmap.close();
  }
}
