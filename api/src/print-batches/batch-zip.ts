import { PassThrough, type Readable } from 'node:stream';
import archiver, { type Archiver } from 'archiver';
import type { Logger } from '../logger';
import type { MediaService, OriginalFile } from '../media/media.types';
import type { PlannedLine, PlannedOrder } from './batch-plan';
import { missingList, orderSheet } from './order-sheet';
import { MISSING_LIST_NAME, ORDER_SHEET_NAME } from './zip-names';
// Before any archive is made: archiver's checksums through Node's own CRC-32.
import './native-crc';

/** Originals opened and being read while the current one is sent. */
export const READ_AHEAD = 3;
/**
 * How much of each original opened ahead is read into memory before it is its turn: a camera
 * original is a few MB, so the next files are usually whole in memory while the current one is
 * checksummed and sent, and the disk (or object storage) never waits for the network. Bounds the
 * read-ahead to READ_AHEAD x this.
 */
export const READ_AHEAD_BYTES = 8 * 1024 * 1024;

export interface BatchZipInput {
  schoolName: string;
  /** The orders to print, in packing order. */
  orders: PlannedOrder[];
  /** The modification time every entry carries. */
  date: Date;
}

/**
 * The lab's ZIP as a stream, produced while it is sent: originals are stored as they are (JPEG
 * and PNG are compressed already, and a lab wants the exact bytes), written one after another and
 * only as fast as the client takes them, with a few files read ahead, so memory stays flat
 * whatever the batch weighs. An original gone from storage is listed in MISSING.txt and the rest
 * still downloads. Once bytes have left, a failure can only cut the stream short, which the client
 * sees as a broken download.
 */
export function streamBatchZip(input: BatchZipInput, deps: { media: Pick<MediaService, 'openOriginal'>; logger: Logger }): Readable {
  const archive = archiver('zip', { store: true });
  const lines = input.orders.flatMap((order) => order.lines);

  /** Originals opened and not yet finished: destroyed if the archive goes away first. */
  const open = new Set<Readable>();
  let closed = false;
  let failed = false;
  const fail = (err: Error) => {
    if (failed || closed) return;
    failed = true;
    deps.logger.error({ err }, 'print batch ZIP failed');
    archive.destroy(err);
  };
  archive.once('close', () => {
    closed = true;
    // The client went away or the archive failed: stop reading the files in hand.
    for (const stream of open) stream.destroy();
  });
  archive.on('warning', (err) => deps.logger.warn({ err }, 'print batch ZIP warning'));
  archive.on('error', fail);

  const track = (stream: Readable) => {
    open.add(stream);
    stream.once('close', () => open.delete(stream));
  };
  /**
   * Opens an original and reads it into a buffer of up to READ_AHEAD_BYTES at once, so the disk
   * works on the next files while the current one is checksummed and sent.
   */
  const openAhead = async (line: PlannedLine): Promise<OriginalFile | null> => {
    const original = line.file ? await deps.media.openOriginal(line.file) : null;
    if (!original) return null;
    if (closed) {
      original.stream.destroy();
      return null;
    }
    const buffered = new PassThrough({ highWaterMark: Math.max(1, Math.min(original.size, READ_AHEAD_BYTES)) });
    track(original.stream);
    track(buffered);
    original.stream.on('error', fail);
    original.stream.pipe(buffered);
    return { stream: buffered, size: original.size };
  };

  const feed = async () => {
    const missing = new Set<PlannedLine>();
    const upcoming = lines.values();
    const pending: { line: PlannedLine; original: Promise<OriginalFile | null> }[] = [];
    const readAhead = () => {
      while (pending.length < READ_AHEAD) {
        const next = upcoming.next();
        if (next.done) return;
        const original = openAhead(next.value);
        // Awaited in turn below; a failure must not surface as an unhandled rejection meanwhile.
        original.catch(() => undefined);
        pending.push({ line: next.value, original });
      }
    };
    readAhead();
    for (let item = pending.shift(); item; item = pending.shift()) {
      readAhead();
      const original = await item.original;
      if (closed || failed) return;
      if (!original) {
        missing.add(item.line);
        continue;
      }
      await appendEntry(archive, original.stream, { name: item.line.zipPath, date: input.date });
    }
    if (closed || failed) return;
    archive.append(Buffer.from(orderSheet(input.schoolName, input.orders, missing), 'utf8'), { name: ORDER_SHEET_NAME, date: input.date });
    if (missing.size > 0) archive.append(Buffer.from(missingList(input.orders, missing), 'utf8'), { name: MISSING_LIST_NAME, date: input.date });
    await archive.finalize();
  };
  feed().catch((err: unknown) => fail(err instanceof Error ? err : new Error(String(err))));
  return archive;
}

/** Appends one entry and waits until archiver has written all of it (or the archive is gone). */
function appendEntry(archive: Archiver, source: Readable, data: { name: string; date: Date }): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      archive.off('entry', onEntry);
      archive.off('error', onError);
      archive.off('close', onClose);
    };
    const onEntry = () => {
      done();
      resolve();
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    const onClose = () => {
      done();
      resolve();
    };
    archive.once('entry', onEntry);
    archive.once('error', onError);
    archive.once('close', onClose);
    archive.append(source, { ...data, store: true });
  });
}
