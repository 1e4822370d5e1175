import { describe, expect, it } from 'vitest';
import { drawPreview, drawWatermark, previewSize, WATERMARK_ANGLE, type PreviewContext } from './preview';

interface TextCall {
  text: string;
  x: number;
  y: number;
  alpha: number;
  fill: unknown;
  angle: number;
}

/** Records what a real 2D context would draw, with the transform in force at each call. */
function fakeContext() {
  const texts: TextCall[] = [];
  const images: number[][] = [];
  let angle = 0;
  const saved: number[] = [];
  const ctx: PreviewContext = {
    globalAlpha: 1,
    fillStyle: '#000000',
    font: '10px sans-serif',
    textAlign: 'start',
    textBaseline: 'alphabetic',
    save: () => saved.push(angle),
    restore: () => {
      angle = saved.pop() ?? 0;
      ctx.globalAlpha = 1;
    },
    translate: () => undefined,
    rotate: (value) => {
      angle += value;
    },
    fillText: (text, x, y) => texts.push({ text, x, y, alpha: ctx.globalAlpha, fill: ctx.fillStyle, angle }),
    measureText: (text) => ({ width: text.length * 6 }),
    drawImage: (_image, dx, dy, dw, dh) => images.push([dx, dy, dw, dh]),
  };
  return { ctx, texts, images };
}

describe('client preview', () => {
  it('scales the longest side to 200 px and never enlarges', () => {
    expect(previewSize(4000, 3000)).toEqual({ width: 200, height: 150 });
    expect(previewSize(3000, 4500)).toEqual({ width: 133, height: 200 });
    expect(previewSize(120, 80)).toEqual({ width: 120, height: 80 });
  });

  it('tiles the business name diagonally in white at 30%', () => {
    const { ctx, texts } = fakeContext();
    drawWatermark(ctx, 200, 150, 'Lesedi School Photos');
    expect(texts.length).toBeGreaterThan(4);
    for (const call of texts) {
      expect(call).toMatchObject({ text: 'Lesedi School Photos', alpha: 0.3, fill: '#ffffff', angle: WATERMARK_ANGLE });
    }
    // Several rows and several columns: a tiled lattice, not one label.
    expect(new Set(texts.map((t) => t.y)).size).toBeGreaterThan(1);
    expect(new Set(texts.map((t) => t.x)).size).toBeGreaterThan(1);
    // The context is left as it was found.
    expect(ctx.globalAlpha).toBe(1);
  });

  it('draws the scaled image under the watermark', () => {
    const { ctx, images, texts } = fakeContext();
    const size = previewSize(4000, 3000);
    drawPreview(ctx, {} as CanvasImageSource, size.width, size.height, 'Studio');
    expect(images).toEqual([[0, 0, 200, 150]]);
    expect(texts.length).toBeGreaterThan(0);
  });
});
