import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { generateDemoPhoto, generateExampleImage } from './generate';

describe('demo image generators', () => {
  it('draws the same JPEG for the same seed and a different one for another seed', async () => {
    const a = await generateDemoPhoto({ seed: 42, label: 'Naledi' });
    const b = await generateDemoPhoto({ seed: 42, label: 'Naledi' });
    const c = await generateDemoPhoto({ seed: 43, label: 'Naledi' });
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
    expect(await sharp(a).metadata()).toMatchObject({ format: 'jpeg', width: 900, height: 1200 });
  });

  it('honours the requested size and escapes the label', async () => {
    const photo = await generateDemoPhoto({ seed: 1, label: 'Tom & <Jerry>', width: 640, height: 480 });
    expect(await sharp(photo).metadata()).toMatchObject({ width: 640, height: 480 });
  });

  it('makes a product mock-up per product kind', async () => {
    const frame = await generateExampleImage('Small Frame', 1);
    const canvas = await generateExampleImage('Large Canvas', 1);
    expect(await sharp(frame).metadata()).toMatchObject({ format: 'png', width: 800, height: 600 });
    expect(frame.equals(canvas)).toBe(false);
  });
});
