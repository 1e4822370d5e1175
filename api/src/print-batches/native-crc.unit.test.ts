import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { Readable } from 'node:stream';
import crc32 from 'crc-32';
import archiver from 'archiver';
import { describe, expect, it } from 'vitest';
import { jsCrc32Buf, nativeCrc32Buf } from './native-crc';
import { readZip } from '../../test/zip';

describe('the native CRC-32 behind archiver', () => {
  it('gives what the crc-32 package gives, for any data and running seed', () => {
    for (const size of [0, 1, 7, 1000, 65_537]) {
      const data = randomBytes(size);
      for (const seed of [undefined, 0, 1, -1, 0x7fffffff, -0x80000000, jsCrc32Buf(randomBytes(33))]) {
        expect(nativeCrc32Buf(data, seed)).toBe(jsCrc32Buf(data, seed));
      }
      expect(nativeCrc32Buf(Array.from(data), 5)).toBe(jsCrc32Buf(Array.from(data), 5));
    }
    // crc32-stream's first call passes its zeroed Buffer as the seed.
    const data = randomBytes(100);
    expect(nativeCrc32Buf(data, Buffer.alloc(4) as unknown as number)).toBe(jsCrc32Buf(data, Buffer.alloc(4) as unknown as number));
  });

  it('is what archiver uses once loaded, and its archives carry the right checksums', async () => {
    expect(crc32.buf).toBe(nativeCrc32Buf);
    const files = [randomBytes(3 * 1024 * 1024 + 17), randomBytes(10), Buffer.alloc(0)];
    const archive = archiver('zip', { store: true });
    const chunks: Buffer[] = [];
    archive.on('data', (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise((resolve) => archive.on('end', resolve));
    files.forEach((data, i) => archive.append(Readable.from([data.subarray(0, data.length >> 1), data.subarray(data.length >> 1)]), { name: `f${i}.bin`, store: true }));
    await archive.finalize();
    await ended;
    const entries = await readZip(Buffer.concat(chunks));
    files.forEach((data, i) => {
      const entry = entries.find((e) => e.name === `f${i}.bin`);
      expect(entry?.data.equals(data)).toBe(true);
      expect(entry?.crc32).toBe(zlib.crc32(data));
    });
  });
});
