import zlib from 'node:zlib';
import crc32 from 'crc-32';

/**
 * archiver checksums every entry with the `crc-32` package, pure JavaScript that runs at about a
 * fifth of the speed of zlib's CRC-32 built into Node (20.15+), and for a print batch's ZIP that
 * checksum was the largest single cost of the download. archiver (through zip-stream,
 * compress-commons and crc32-stream) looks `crc32.buf` up on the shared module object at every
 * call, so pointing it at zlib's implementation makes every archive in this process use the
 * native one. Same polynomial, same results: the unit test compares both on random data and seeds.
 *
 * `crc-32` works on signed 32-bit integers and treats its seed as the CRC so far; zlib takes and
 * returns the unsigned form. crc32-stream starts its running checksum as a zeroed Buffer rather than
 * a number, which `crc-32` reads as 0: so does this. Node answers 0 for no bytes whatever the seed,
 * where the CRC so far is the right answer.
 */
export const jsCrc32Buf = crc32.buf;

export function nativeCrc32Buf(data: number[] | Uint8Array, seed?: number): number {
  const start = typeof seed === 'number' ? seed >>> 0 : 0;
  if (data.length === 0) return start | 0;
  const bytes = data instanceof Uint8Array ? data : Uint8Array.from(data);
  return zlib.crc32(bytes, start) | 0;
}

if (typeof zlib.crc32 === 'function') crc32.buf = nativeCrc32Buf;
