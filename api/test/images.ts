import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** Images for tests, made on the fly: the repository holds no binary fixtures. */

export async function solidJpeg(width: number, height: number, colour = '#3a7bd5'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).jpeg({ quality: 90 }).toBuffer();
}

/** Left half red, right half blue, with an EXIF orientation tag (6 = display rotated 90° clockwise). */
export async function splitJpeg(width: number, height: number, orientation = 1): Promise<Buffer> {
  const half = Math.floor(width / 2);
  return sharp({ create: { width, height, channels: 3, background: '#0000ff' } })
    .composite([{ input: { create: { width: half, height, channels: 3, background: '#ff0000' } }, left: 0, top: 0 }])
    .jpeg({ quality: 92 })
    .withMetadata({ orientation })
    .withExif({ IFD0: { Copyright: 'Camera serial 1234', Artist: 'Test' } })
    .toBuffer();
}

export async function alphaPng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 20, g: 160, b: 90, alpha: 0.6 } } }).png().toBuffer();
}

export async function gif(width: number, height: number, frames = 1): Promise<Buffer> {
  const frame = (i: number) => ({ create: { width, height, channels: 3 as const, background: i % 2 ? '#ff8800' : '#0088ff' } });
  if (frames === 1) return sharp(frame(0)).gif().toBuffer();
  const pages = await Promise.all(Array.from({ length: frames }, (_, i) => sharp(frame(i)).png().toBuffer()));
  return sharp(pages, { join: { animated: true } }).gif({ delay: 100 }).toBuffer();
}

export async function truncatedJpeg(): Promise<Buffer> {
  const full = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#888' } })
    .composite([{ input: Buffer.from('<svg width="800" height="600"><circle cx="400" cy="300" r="250" fill="#c33"/></svg>') }])
    .jpeg()
    .toBuffer();
  return full.subarray(0, Math.floor(full.length / 2));
}

export const htmlFile = () => Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');

/**
 * A valid 1-bit greyscale PNG that declares width × height (20000² = 400 MP) yet weighs ~50 KB.
 * Built with zlib directly: having sharp encode 400 MP takes ~9 s, this takes ~0.3 s.
 */
export function pngBomb(width = 20000, height = 20000): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rowBytes = 1 + Math.ceil(width / 8);
  const pixels = deflateSync(Buffer.alloc(rowBytes * height), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
