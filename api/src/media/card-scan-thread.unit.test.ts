import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logger';
import { findCardText, greyCopy, scanCopy, type GreyImage, type ScanImage } from './card-scan';
import { createCardScanner, type CardScanner } from './card-scan-thread';
import { generateCardPhoto } from './generate-card';

/** What an upload hands the scanner: a copy of its decode at preview size, as the renditions are made from. */
async function decodeOf(jpeg: Buffer): Promise<ScanImage> {
  const base = await sharp(jpeg).autoOrient().resize(1280, 1280, { fit: 'inside' }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return scanCopy(base.data, { width: base.info.width, height: base.info.height, channels: base.info.channels });
}

/** Its grey copy, as a scan on the event loop takes it. */
const greyOf = async (jpeg: Buffer): Promise<GreyImage> => {
  const decode = await decodeOf(jpeg);
  return greyCopy(decode.data, { width: decode.width, height: decode.height, channels: decode.channels ?? 1 });
};

const CARD = { qrMm: 85, cardMm: { width: 95, height: 139 }, qrOffsetMm: { x: 5, y: 5 } };
const cardGrey = async () => greyOf(await generateCardPhoto({ text: 'K7Q2-M9XD', seed: 3, width: 2400, height: 1800, distanceMm: 2400, ...CARD, yaw: 25, roll: 12 }));

/** Grain with edges everywhere and no code: the scan's slowest kind of frame (every patch and the whole frame read). */
function grain(width: number, height: number): GreyImage {
  const data = new Uint8Array(new SharedArrayBuffer(width * height));
  let seed = 12345;
  for (let i = 0; i < data.length; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    data[i] = seed >>> 24;
  }
  return { data, width, height };
}

const FAILING = new URL('../../test/fixtures/failing-card-scan-worker.mjs', import.meta.url);

let scanner: CardScanner | null = null;
afterEach(async () => {
  await scanner?.close();
  scanner = null;
});

describe('the card scan on its worker thread', () => {
  it('finds the card the scan on the event loop finds, asking about the same texts in the same order', async () => {
    const logger = createLogger('silent');
    const warn = vi.spyOn(logger, 'warn');
    scanner = createCardScanner({ logger });
    const grey = await cardGrey();
    expect(await scanner.find(grey, (text) => text === 'K7Q2-M9XD')).toBe('K7Q2-M9XD');
    const here: string[] = [];
    const there: string[] = [];
    expect(findCardText(grey, (text) => here.push(text) < 0)).toBeNull();
    expect(await scanner.find(grey, (text) => there.push(text) < 0)).toBeNull();
    expect(there).toEqual(here);
    expect(there.length).toBeGreaterThan(0);
    // Handed the decode itself (as an upload does), the thread takes the grey copy and reads the same texts.
    const photo = await generateCardPhoto({ text: 'K7Q2-M9XD', seed: 3, width: 2400, height: 1800, distanceMm: 2400, ...CARD, yaw: 25, roll: 12 });
    const fromDecode: string[] = [];
    expect(await scanner.find(await decodeOf(photo), (text) => fromDecode.push(text) < 0)).toBeNull();
    expect(fromDecode).toEqual(here);
    expect(await scanner.find(await decodeOf(photo), (text) => text === 'K7Q2-M9XD')).toBe('K7Q2-M9XD');
    // All of it on the thread: nothing fell back to the event loop.
    expect(warn).not.toHaveBeenCalled();
  }, 30_000);

  it('leaves the event loop free while a frame is scanned: a timer keeps firing', async () => {
    scanner = createCardScanner({ logger: createLogger('silent') });
    // The thread is started once before, so only the scan is timed.
    await scanner.find(grain(64, 64), () => true);
    const frame = grain(1600, 1200);
    let last = performance.now();
    let longestGap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    try {
      expect(await scanner.find(frame, () => true)).toBeNull();
    } finally {
      clearInterval(timer);
    }
    const ended = performance.now();
    const took = ended - started;
    // On the event loop the scan is one synchronous block: the timer would wait all of it.
    longestGap = Math.max(longestGap, ended - last);
    expect(took).toBeGreaterThan(100);
    expect(longestGap).toBeLessThan(took / 2);
  }, 30_000);

  it('costs no card when the worker fails: the photo is scanned on the event loop and the next scan starts a new worker', async () => {
    const logger = createLogger('silent');
    const warn = vi.spyOn(logger, 'warn');
    scanner = createCardScanner({ logger, workerUrl: FAILING });
    const grey = await cardGrey();
    expect(await scanner.find(grey, (text) => text === 'K7Q2-M9XD')).toBe('K7Q2-M9XD');
    expect(await scanner.find(grey, (text) => text === 'K7Q2-M9XD')).toBe('K7Q2-M9XD');
    expect(warn).toHaveBeenCalledTimes(2);
  }, 30_000);

  it('costs no card when the worker cannot start', async () => {
    const logger = createLogger('silent');
    const warn = vi.spyOn(logger, 'warn');
    scanner = createCardScanner({ logger, workerUrl: new URL('./no-such-worker.mjs', FAILING) });
    expect(await scanner.find(await cardGrey(), () => true)).toBe('K7Q2-M9XD');
    expect(warn).toHaveBeenCalledTimes(1);
    // Handed the decode itself, the event loop takes the grey copy and reads the card.
    const photo = await generateCardPhoto({ text: 'K7Q2-M9XD', seed: 3, width: 2400, height: 1800, distanceMm: 2400, ...CARD, yaw: 25, roll: 12 });
    expect(await scanner.find(await decodeOf(photo), () => true)).toBe('K7Q2-M9XD');
  }, 30_000);
});
