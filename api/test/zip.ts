/**
 * Reads a ZIP back in tests the way an unzip tool does (yauzl: the central directory, the UTF-8
 * name flag, Zip64), every entry with its bytes, and refuses an entry whose bytes do not match
 * the CRC-32 the archive declares for it (as unzip does).
 */
import zlib from 'node:zlib';
import yauzl from 'yauzl';

export interface ZipEntry {
  name: string;
  compressionMethod: number;
  /** The entry declares its name as UTF-8 (general purpose bit 11). */
  utf8: boolean;
  /** The CRC-32 the central directory declares (checked against the bytes). */
  crc32: number;
  data: Buffer;
}

export function readZip(buffer: Buffer): Promise<ZipEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('no zip'));
      const entries: ZipEntry[] = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamErr, stream) => {
          if (streamErr || !stream) return reject(streamErr ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            const data = Buffer.concat(chunks);
            if (zlib.crc32(data) !== entry.crc32) return reject(new Error(`${entry.fileName}: its bytes do not match the CRC-32 the ZIP declares`));
            entries.push({ name: entry.fileName, compressionMethod: entry.compressionMethod, utf8: (entry.generalPurposeBitFlag & 0x800) !== 0, crc32: entry.crc32, data });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
