/**
 * Reads a ZIP back in tests the way an unzip tool does (yauzl: the central directory, the UTF-8
 * name flag, Zip64), every entry with its bytes.
 */
import yauzl from 'yauzl';

export interface ZipEntry {
  name: string;
  compressionMethod: number;
  /** The entry declares its name as UTF-8 (general purpose bit 11). */
  utf8: boolean;
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
            entries.push({ name: entry.fileName, compressionMethod: entry.compressionMethod, utf8: (entry.generalPurposeBitFlag & 0x800) !== 0, data: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
