import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import type { OriginalFile } from '../media/media.types';
import type { PlannedOrder } from './batch-plan';
import { READ_AHEAD, streamBatchZip } from './batch-zip';
import { readZip } from '../../test/zip';

const logger = createLogger('silent');

function order(keys: (string | null)[]): PlannedOrder {
  return {
    id: 'ORDER0000001',
    studentName: 'Neo',
    customerName: 'Mpho',
    className: 'Class 1A',
    orderStatus: 'at_printers',
    lines: keys.map((key, index) => ({
      itemId: index,
      productName: '10x15 Print',
      packageName: null,
      quantity: 1,
      photoId: index,
      originalName: `IMG_${index}.JPG`,
      originalNumber: String(index),
      storedName: null,
      className: 'Class 1A',
      studentName: 'Neo',
      file: key === null ? null : { storageKey: key, mimeType: 'image/jpeg', size: 10 },
      lineStudentId: null,
      photoNow: { studentId: null, inTray: false, card: false, doNotPublish: false },
      photoName: `IMG_${index}.JPG`,
      zipPath: `10x15 Print/IMG_${index}.JPG`,
    })),
  };
}

/** Originals in memory, handed out in slow chunks so the archive has to wait for them. */
function memoryMedia(files: Record<string, Buffer | 'broken'>) {
  const streams: Readable[] = [];
  return {
    streams,
    media: {
      async openOriginal(photo: { storageKey: string }): Promise<OriginalFile | null> {
        const data = files[photo.storageKey];
        if (data === undefined) return null;
        const stream =
          data === 'broken'
            ? new Readable({
                read() {
                  this.destroy(new Error('EIO: the disk failed'));
                },
              })
            : Readable.from(Array.from({ length: 4 }, (_, i) => data.subarray((i * data.length) / 4, ((i + 1) * data.length) / 4)), { objectMode: false });
        streams.push(stream);
        return { stream, size: data === 'broken' ? 0 : data.length };
      },
    },
  };
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await pipeline(stream, new Writable({ write: (chunk: Buffer, _encoding, done) => (chunks.push(chunk), done()) }));
  return Buffer.concat(chunks);
}

describe('the lab ZIP stream', () => {
  it('stores every original in order and lists the missing ones', async () => {
    const files = { a: Buffer.from('first original'), c: Buffer.alloc(100_000, 7), d: Buffer.from('fourth') };
    const { media } = memoryMedia(files);
    const zip = await collect(streamBatchZip({ schoolName: 'School', orders: [order(['a', 'gone', 'c', null, 'd'])], date: new Date(0) }, { media, logger }));
    const entries = await readZip(zip);
    expect(entries.map((entry) => entry.name)).toEqual(['10x15 Print/IMG_0.JPG', '10x15 Print/IMG_2.JPG', '10x15 Print/IMG_4.JPG', 'order-sheet.csv', 'MISSING.txt']);
    expect(entries[0]!.data.equals(files.a)).toBe(true);
    expect(entries[1]!.data.equals(files.c)).toBe(true);
    expect(entries[2]!.data.equals(files.d)).toBe(true);
    expect(entries.every((entry) => entry.compressionMethod === 0)).toBe(true);
    expect(entries[4]!.data.toString()).toContain('IMG_1.JPG');
    expect(entries[4]!.data.toString()).toContain('IMG_3.JPG');
  });

  it('cuts the download short when an original cannot be read, instead of hanging', async () => {
    const { media } = memoryMedia({ a: Buffer.from('ok'), b: 'broken', c: Buffer.from('never sent') });
    await expect(collect(streamBatchZip({ schoolName: 'School', orders: [order(['a', 'b', 'c'])], date: new Date(0) }, { media, logger }))).rejects.toThrow(/EIO/);
  });

  it('stops reading originals when the client goes away', async () => {
    const files = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, Buffer.alloc(200_000, i)]));
    const { media, streams } = memoryMedia(files);
    const zip = streamBatchZip({ schoolName: 'School', orders: [order(Object.keys(files))], date: new Date(0) }, { media, logger });
    await new Promise<void>((resolve) => zip.once('data', () => resolve()));
    const closed = new Promise((resolve) => zip.once('close', resolve));
    zip.destroy();
    await closed;
    await new Promise((resolve) => setImmediate(resolve));
    // Only the files sent so far and the few read ahead were ever opened, and none is left reading.
    expect(streams.length).toBeGreaterThan(READ_AHEAD);
    expect(streams.length).toBeLessThan(12);
    expect(streams.every((stream) => stream.destroyed || stream.readableEnded)).toBe(true);
  });
});
