import sharp from 'sharp';
import { MSG } from '../../contract/messages';
import type { AcceptedImageType } from '../../contract/constants';
import { notFound } from '../http/errors';
import type { UploadedFile } from '../http/multipart';
import type { Logger } from '../logger';
import type { ObjectStorage } from '../storage';
import type { IngestStage } from '../metrics/metrics';
import type { MediaService, OriginalFile, PhotoFiles, PreparedPhoto, RenditionKind, StoredPhoto } from './media.types';
import { checkUpload, checkUploadBasics, decodeError } from './image-check';
import { renderExample, renderPhoto, renderSmallThumbnail, type PhotoRenditions } from './renditions';
import { createLimiter } from '../lib/semaphore';
import { createCardScanner } from './card-scan-thread';
import { createRenditionCache } from './rendition-cache';
import { EXTENSION_BY_MIME, exampleKey, newStorageKey, objectKey } from './storage';

export interface MediaOptions {
  /** The folder or bucket of STORAGE_URL: every stored file goes through it. */
  storage: ObjectStorage;
  businessName: string;
  logger: Logger;
  /** Decodes allowed at once across all requests (docs/images.md, "Decodes at a time"). */
  maxConcurrentJobs?: number;
  /** Hears each photo's time in the ingest stages (the metrics' photo_ingest_duration_seconds). */
  onIngest?: (stage: IngestStage, seconds: number) => void;
  /** Another card scan worker (a test's failing one); by default card-scan.worker.ts. */
  cardScanWorker?: URL;
}

/** Decodes the server runs at once by default: one per core of a small server. */
export const MEDIA_JOBS = 2;

const EXAMPLE_NAME = /^[a-f0-9]{16,64}\.webp$/;
const RENDITION_CACHE = 'private, max-age=604800';
const ORIGINAL_CHUNK_BYTES = 1024 * 1024;
const EXAMPLE_CACHE = 'public, max-age=604800';
/** A paid original is kept by no cache (docs/access.md, "Download links for digital copies"). */
const DOWNLOAD_CACHE = 'private, no-store';

export async function createMediaService(options: MediaOptions): Promise<MediaService> {
  const { storage } = options;
  await storage.ensureReady();
  // libvips' operation cache would keep decoded 12 MP images alive between uploads; memory matters more here.
  sharp.cache(false);
  const limit = createLimiter(options.maxConcurrentJobs ?? MEDIA_JOBS);
  // The card scan runs on its own thread, started on the first scan (card-scan-thread.ts).
  const cards = createCardScanner({ logger: options.logger, workerUrl: options.cardScanWorker });

  const extOf = (mime: string) => EXTENSION_BY_MIME[mime as AcceptedImageType] ?? 'bin';
  const originalKey = (photo: PhotoFiles) => objectKey('originals', photo.storageKey, extOf(photo.mimeType));
  const FOLDER = { thumbnail: 'thumbnails', 'small-thumbnail': 'small-thumbnails', preview: 'previews' } as const;
  const renditionKey = (key: string, kind: RenditionKind) => objectKey(FOLDER[kind], key, 'webp');
  const allKeys = (photo: PhotoFiles) => [
    originalKey(photo),
    renditionKey(photo.storageKey, 'thumbnail'),
    renditionKey(photo.storageKey, 'small-thumbnail'),
    renditionKey(photo.storageKey, 'preview'),
  ];
  const WEBP = { contentType: 'image/webp' };
  const kept = createRenditionCache();

  /**
   * A rendition or example image, read whole (the storage's whole-object read: the callback file
   * API on `file:`, one GET on a bucket) to be written in one piece: no stream to set up and tear
   * down per image, which a gallery asking for forty thumbnails at once pays forty times. Gone
   * from storage: the JSON 404.
   */
  async function readWhole(key: string): Promise<Buffer> {
    const data = await storage.read(key);
    if (!data) throw notFound(MSG.imageNotFound);
    return data;
  }

  async function render(file: UploadedFile, cardScan: () => boolean): Promise<PhotoRenditions> {
    const queued = performance.now();
    return limit(async () => {
      const started = performance.now();
      options.onIngest?.('wait', (started - queued) / 1000);
      try {
        return await renderPhoto(file.path, options.businessName, { cardScan });
      } catch (err) {
        throw decodeError(err, file.originalName);
      } finally {
        options.onIngest?.('render', (performance.now() - started) / 1000);
      }
    });
  }

  /**
   * Validates and renders; nothing is stored yet. The renditions wait in memory (a few hundred
   * kilobytes a photo) and the original in the upload's temp file until commit puts all four
   * objects in storage; each arrives whole (a rename on `file:`, one upload on S3).
   */
  async function prepare(key: string, file: UploadedFile, cardScan: () => boolean = () => true): Promise<PreparedPhoto> {
    const checked = await checkUpload(file);
    const renditions = await render(file, cardScan);
    // A copy of the same decode, kept for looking for a QR card (its grey copy is the scan's thread's work).
    const scanImage = renditions.scanImage;
    const ext = EXTENSION_BY_MIME[checked.mime];
    // Only the encoded renditions are kept, never the decoded pixels (tens of megabytes a photo).
    let encoded: { preview: Buffer; thumbnail: Buffer; small: Buffer } | null = {
      preview: renditions.preview.data,
      thumbnail: renditions.thumbnail.data,
      small: renditions.smallThumbnail.data,
    };
    const discard = async () => {
      encoded = null;
    };
    const stored: StoredPhoto = {
      storageKey: key,
      filename: `${key}.${ext}`,
      mimeType: checked.mime,
      fileSize: checked.fileSize,
      width: checked.width,
      height: checked.height,
      thumbWidth: renditions.thumbnail.width,
      thumbHeight: renditions.thumbnail.height,
      thumbEtag: renditions.thumbnail.etag,
      previewEtag: renditions.preview.etag,
      smallThumbWidth: renditions.smallThumbnail.width,
      smallThumbHeight: renditions.smallThumbnail.height,
      smallThumbEtag: renditions.smallThumbnail.etag,
    };
    const targets = {
      preview: renditionKey(key, 'preview'),
      thumbnail: renditionKey(key, 'thumbnail'),
      small: renditionKey(key, 'small-thumbnail'),
      original: objectKey('originals', key, ext),
    };
    return {
      stored,
      takenAt: checked.takenAt,
      findCardText: async (accept) => (scanImage ? cards.find(scanImage, accept) : null),
      discard,
      async commit() {
        const ready = encoded;
        if (!ready) throw new Error('commit after discard');
        const started = performance.now();
        try {
          // All four at once (four round trips to a bucket overlap), and every one settled before
          // a failure removes them, so no write can land after the cleanup.
          const results = await Promise.allSettled([
            storage.putBuffer(targets.preview, ready.preview, WEBP),
            storage.putBuffer(targets.thumbnail, ready.thumbnail, WEBP),
            storage.putBuffer(targets.small, ready.small, WEBP),
            // The original byte for byte: renamed on `file:`, streamed in parts to S3.
            storage.putFile(targets.original, file.path, { contentType: checked.mime, move: true }),
          ]);
          const failed = results.find((result) => result.status === 'rejected');
          if (failed) {
            options.logger.warn({ err: failed.reason, key }, 'storing a photo failed; its objects were removed');
            await storage.remove([targets.preview, targets.thumbnail, targets.small, targets.original]).catch((cleanup: unknown) => {
              options.logger.error({ err: cleanup, key }, 'removing the objects of a failed photo failed');
            });
            throw failed.reason;
          }
          options.onIngest?.('store', (performance.now() - started) / 1000);
        } finally {
          await discard();
        }
        return stored;
      },
    };
  }

  async function place(key: string, file: UploadedFile): Promise<StoredPhoto> {
    return (await prepare(key, file)).commit();
  }

  // Originals are read whole; large chunks cut the per-chunk cost of every stream they pass.
  const openOriginal = (photo: PhotoFiles): Promise<OriginalFile | null> =>
    storage.open(originalKey(photo), { highWaterMark: ORIGINAL_CHUNK_BYTES });

  return {
    tmpDir: storage.scratchDir,

    close: () => cards.close(),

    checkUpload: async (file) => (await checkUploadBasics(file)).mime,
    prepareUpload: (file, prepareOptions) => prepare(newStorageKey(), file, prepareOptions?.cardScan),

    ingestPhoto: (file) => place(newStorageKey(), file),

    async restorePhoto(photo, file) {
      const stored = await place(photo.storageKey, file);
      kept.drop(allKeys(photo));
      // A replacement of another type leaves the old extension's name behind; it is gone or stale.
      if (stored.mimeType !== photo.mimeType) await storage.remove([originalKey(photo)]);
      return stored;
    },

    async removePhoto(photo) {
      kept.drop(allKeys(photo));
      await storage.remove(allKeys(photo));
    },

    async makeSmallThumbnail(photo) {
      const original = await storage.read(originalKey(photo));
      if (!original) return null;
      const small = await limit(() => renderSmallThumbnail(original, options.businessName));
      await storage.putBuffer(renditionKey(photo.storageKey, 'small-thumbnail'), small.data, WEBP);
      kept.drop([renditionKey(photo.storageKey, 'small-thumbnail')]);
      return { width: small.width, height: small.height, etag: small.etag };
    },

    originalExists: async (photo) => (await storage.stat(originalKey(photo))) !== null,

    openOriginal,

    async originalDownload(photo, fileName) {
      const original = await openOriginal(photo);
      if (!original) return null;
      return {
        contentType: photo.mimeType,
        cacheControl: DOWNLOAD_CACHE,
        fileName,
        disposition: 'attachment',
        stream: original.stream,
        size: original.size,
      };
    },

    rendition(photo, kind) {
      const key = renditionKey(photo.storageKey, kind);
      return {
        contentType: 'image/webp',
        etag: photo.etag,
        cacheControl: RENDITION_CACHE,
        fileName: `${kind}.webp`,
        vary: kind === 'preview' ? undefined : 'Save-Data',
        // Read after the access check, from memory when this ETag's bytes were read lately.
        read: async () => {
          const hit = kept.get(key, photo.etag);
          if (hit) return hit;
          const data = await readWhole(key);
          kept.keep(key, photo.etag, data);
          return data;
        },
      };
    },

    async storeExampleImage(file) {
      await checkUpload(file);
      const data = await limit(async () => {
        try {
          return await renderExample(file.path);
        } catch (err) {
          throw decodeError(err, file.originalName);
        }
      });
      const name = `${newStorageKey()}.webp`;
      await storage.putBuffer(exampleKey(name), data, WEBP);
      return name;
    },

    async removeExampleImage(fileName) {
      if (EXAMPLE_NAME.test(fileName)) await storage.remove([exampleKey(fileName)]);
    },

    exampleImage(fileName) {
      if (!EXAMPLE_NAME.test(fileName)) throw notFound(MSG.imageNotFound);
      // The name is random and never reused, so it is a stable validator on its own.
      return {
        contentType: 'image/webp',
        etag: fileName.slice(0, -'.webp'.length),
        cacheControl: EXAMPLE_CACHE,
        fileName: 'example.webp',
        read: () => readWhole(exampleKey(fileName)),
      };
    },
  };
}
