import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import { MSG } from '../../contract/messages';
import { UPLOAD_MAX_FILE_BYTES } from '../../contract/constants';
import { AppError } from '../http/errors';
import { createLogger } from '../logger';
import type { UploadedFile } from '../http/multipart';
import { alphaPng, gif, htmlFile, pngBomb, solidJpeg, truncatedJpeg } from '../../test/images';
import { createFileStorage } from '../storage/file-storage';
import { createMediaService } from './media.service';
import { generateCardPhoto } from './generate-card';
import type { MediaService } from './media.types';
import { objectKey } from './storage';

let root: string;
let storageDir: string;
let media: MediaService;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'media-unit-'));
  storageDir = path.join(root, 'storage');
  media = await createMediaService({ storage: createFileStorage(storageDir), businessName: 'Test Studio', logger: createLogger('silent') });
});

/** The original's file in the storage folder. */
const originalFile = (photo: { storageKey: string; mimeType: string }) =>
  path.join(storageDir, objectKey('originals', photo.storageKey, photo.mimeType === 'image/png' ? 'png' : 'jpg'));
afterAll(async () => {
  await media.close();
  await fs.rm(root, { recursive: true, force: true });
});

/** An upload as multipart.ts hands it over: a temp file inside the storage tmp folder. */
async function upload(bytes: Buffer, originalName: string): Promise<UploadedFile> {
  const file = path.join(media.tmpDir, `up-${Math.random().toString(16).slice(2)}`);
  await fs.writeFile(file, bytes);
  return { path: file, originalName, size: bytes.length };
}

/** Every file under the storage folder except temp uploads. */
async function storedFiles(): Promise<string[]> {
  const entries = await fs.readdir(storageDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(storageDir, path.join(e.parentPath, e.name)))
    .filter((p) => !p.startsWith('tmp'));
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('media service: ingest', () => {
  it('stores the original byte-for-byte under a random sharded name, with both renditions', async () => {
    const bytes = await solidJpeg(1600, 1200);
    const stored = await media.ingestPhoto(await upload(bytes, '../../evil name.jpg'));
    const key = stored.storageKey;
    expect(key).toMatch(/^[a-f0-9]{32}$/);
    expect(stored).toMatchObject({ filename: `${key}.jpg`, mimeType: 'image/jpeg', fileSize: bytes.length, width: 1600, height: 1200 });
    expect([stored.thumbWidth, stored.thumbHeight]).toEqual([400, 300]);
    const shard = (kind: string, ext: string) => path.join(kind, key.slice(0, 2), key.slice(2, 4), `${key}.${ext}`);
    expect(await fs.readFile(path.join(storageDir, shard('originals', 'jpg')))).toEqual(bytes);
    const files = await storedFiles();
    expect(files).toEqual(
      expect.arrayContaining([shard('originals', 'jpg'), shard('thumbnails', 'webp'), shard('small-thumbnails', 'webp'), shard('previews', 'webp')]),
    );
    expect([stored.smallThumbWidth, stored.smallThumbHeight]).toEqual([320, 240]);
    expect(files.some((f) => f.includes('evil'))).toBe(false);

    await media.removePhoto({ storageKey: key, mimeType: 'image/jpeg' });
    expect(await media.originalExists({ storageKey: key, mimeType: 'image/jpeg' })).toBe(false);
    expect((await storedFiles()).some((f) => f.includes(key))).toBe(false);
  });

  it('accepts PNG and GIF by content, whatever the name says', async () => {
    const png = await media.ingestPhoto(await upload(await alphaPng(300, 200), 'photo.jpg'));
    expect(png).toMatchObject({ mimeType: 'image/png', filename: `${png.storageKey}.png` });
    const animated = await media.ingestPhoto(await upload(await gif(120, 80, 4), 'party.GIF'));
    expect(animated).toMatchObject({ mimeType: 'image/gif', width: 120, height: 80, thumbWidth: 120 });
  });

  it('refuses a renamed HTML file with 415 naming the file', async () => {
    const err = await refusal(media.ingestPhoto(await upload(htmlFile(), 'IMG_0001.jpg')));
    expect([err.status, err.message]).toEqual([415, MSG.fileNotImage('IMG_0001.jpg')]);
  });

  it('refuses an empty file with 400', async () => {
    const err = await refusal(media.ingestPhoto(await upload(Buffer.alloc(0), 'empty.jpg')));
    expect([err.status, err.message]).toEqual([400, MSG.fileEmpty('empty.jpg')]);
  });

  it('refuses a file over 10 MB with 413', async () => {
    const big = Buffer.alloc(UPLOAD_MAX_FILE_BYTES + 1);
    big.set([0xff, 0xd8, 0xff], 0);
    const err = await refusal(media.checkUpload(await upload(big, 'huge.jpg')));
    expect([err.status, err.message]).toEqual([413, MSG.fileTooLarge('huge.jpg')]);
  });

  it('refuses a truncated JPEG with 400 and leaves nothing behind', async () => {
    const before = await storedFiles();
    const err = await refusal(media.ingestPhoto(await upload(await truncatedJpeg(), 'cut.jpg')));
    expect([err.status, err.message]).toEqual([400, MSG.fileCorrupt('cut.jpg')]);
    expect(await storedFiles()).toEqual(before);
  });

  it('refuses a 20000x20000 pixel bomb quickly, before decoding it', async () => {
    const started = Date.now();
    const err = await refusal(media.ingestPhoto(await upload(pngBomb(), 'bomb.png')));
    expect([err.status, err.message]).toEqual([400, MSG.fileTooManyPixels('bomb.png')]);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses a GIF with too many frames', async () => {
    const err = await refusal(media.ingestPhoto(await upload(await gif(10, 10, 60), 'long.gif')));
    expect([err.status, err.message]).toEqual([400, MSG.fileTooManyPixels('long.gif')]);
  });

  it('restores a missing original under the same key and rebuilds the renditions', async () => {
    const stored = await media.ingestPhoto(await upload(await solidJpeg(800, 600, '#112233'), 'IMG_7.jpg'));
    const files = { storageKey: stored.storageKey, mimeType: stored.mimeType };
    await fs.rm(originalFile(files));
    expect(await media.originalExists(files)).toBe(false);
    const replacement = await alphaPng(640, 480);
    const restored = await media.restorePhoto(files, await upload(replacement, 'IMG_7.jpg'));
    expect(restored).toMatchObject({ storageKey: stored.storageKey, mimeType: 'image/png', width: 640, height: 480 });
    expect(restored.previewEtag).not.toBe(stored.previewEtag);
    expect(await fs.readFile(originalFile({ storageKey: stored.storageKey, mimeType: 'image/png' }))).toEqual(replacement);
    // The original of the old type is gone, not left beside the new one.
    await expect(fs.access(originalFile(files))).rejects.toThrow();
  });
});

describe('media service: example images', () => {
  it('re-encodes to WebP of at most 800 px under a random name, and removes it', async () => {
    const name = await media.storeExampleImage(await upload(await solidJpeg(2000, 1000), 'canvas.jpg'));
    expect(name).toMatch(/^[a-f0-9]{32}\.webp$/);
    const file = path.join(storageDir, 'examples', name);
    expect(await sharp(file).metadata()).toMatchObject({ format: 'webp', width: 800, height: 400 });
    await media.removeExampleImage(name);
    await expect(fs.access(file)).rejects.toThrow();
  });

  it('validates example images like photos', async () => {
    const err = await refusal(media.storeExampleImage(await upload(htmlFile(), 'frame.png')));
    expect(err.status).toBe(415);
  });
});

describe('media service: the card scan', () => {
  const CARD = { qrMm: 85, cardMm: { width: 95, height: 139 }, qrOffsetMm: { x: 5, y: 5 } };
  const cardPhoto = () => generateCardPhoto({ text: 'K7Q2-M9XD', seed: 3, width: 2400, height: 1800, distanceMm: 2400, ...CARD, yaw: 25, roll: 12 });

  it('finds the card when asked to scan, and not when the class has nobody to match (no grey copy kept)', async () => {
    const bytes = await cardPhoto();
    const scanned = await media.prepareUpload(await upload(bytes, 'card.jpg'), { cardScan: () => true });
    expect(await scanned.findCardText(() => true)).toBe('K7Q2-M9XD');
    await scanned.discard();
    const skipped = await media.prepareUpload(await upload(bytes, 'card.jpg'), { cardScan: () => false });
    expect(await skipped.findCardText(() => true)).toBeNull();
    await skipped.discard();
    // Without a decision the scan is kept.
    const undecided = await media.prepareUpload(await upload(bytes, 'card.jpg'));
    expect(await undecided.findCardText(() => true)).toBe('K7Q2-M9XD');
    await undecided.discard();
  });

  it("stores the photo and finds its card when the scan's worker thread breaks", async () => {
    const logger = createLogger('silent');
    const warn = vi.spyOn(logger, 'warn');
    const broken = await createMediaService({
      storage: createFileStorage(storageDir),
      businessName: 'Test Studio',
      logger,
      cardScanWorker: new URL('../../test/fixtures/failing-card-scan-worker.mjs', import.meta.url),
    });
    try {
      const prepared = await broken.prepareUpload(await upload(await cardPhoto(), 'card.jpg'), { cardScan: () => true });
      expect(await prepared.findCardText((text) => text === 'K7Q2-M9XD')).toBe('K7Q2-M9XD');
      const stored = await prepared.commit();
      expect(await broken.originalExists(stored)).toBe(true);
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      await broken.close();
    }
  });
});
