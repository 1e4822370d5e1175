import { describe, expect, it } from 'vitest';
import { etagMatches } from './send-file';
import { sniffImageType } from './image-check';
import { createLimiter } from '../lib/semaphore';

describe('etagMatches', () => {
  it('matches strong, weak, listed and wildcard validators', () => {
    expect(etagMatches('"abc"', 'abc')).toBe(true);
    expect(etagMatches('W/"abc"', 'abc')).toBe(true);
    expect(etagMatches('"x", "abc"', 'abc')).toBe(true);
    expect(etagMatches('*', 'abc')).toBe(true);
    expect(etagMatches('"abcd"', 'abc')).toBe(false);
    expect(etagMatches(undefined, 'abc')).toBe(false);
  });
});

describe('sniffImageType', () => {
  const bytes = (...b: number[]) => Uint8Array.from([...b, ...new Array<number>(16).fill(0)]);
  it('knows JPEG, PNG and GIF by their magic bytes only', () => {
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(sniffImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe('image/png');
    expect(sniffImageType(Uint8Array.from(Buffer.from('GIF89a....')))).toBe('image/gif');
    expect(sniffImageType(Uint8Array.from(Buffer.from('<svg xmlns=')))).toBeNull();
    expect(sniffImageType(Uint8Array.from(Buffer.from('RIFF....WEBP')))).toBeNull();
  });
});

describe('createLimiter', () => {
  it('never runs more tasks at once than its size', async () => {
    const limit = createLimiter(2);
    let active = 0;
    let peak = 0;
    const task = () =>
      limit(async () => {
        active += 1;
        peak = Math.max(peak, active);
        await new Promise((resolve) => setTimeout(resolve, 5));
        active -= 1;
      });
    await Promise.all(Array.from({ length: 8 }, task));
    expect(peak).toBe(2);
  });

  it('releases its slot when a task fails', async () => {
    const limit = createLimiter(1);
    await expect(limit(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limit(() => Promise.resolve(7))).resolves.toBe(7);
  });
});
