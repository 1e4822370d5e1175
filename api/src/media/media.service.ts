import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { MSG } from '../../contract/messages';
import type { AcceptedImageType } from '../../contract/constants';
import { notFound } from '../http/errors';
import type { UploadedFile } from '../http/multipart';
import type { Logger } from '../logger';
import type { MediaService, PhotoFiles, PreparedPhoto, RenditionKind, StoredPhoto } from './media.types';
import { checkUpload, checkUploadBasics, decodeError } from './image-check';
import { renderExample, renderPhoto, renderSmallThumbnail, type PhotoRenditions } from './renditions';
import { createLimiter } from './semaphore';
import { sendStoredFile } from './send-file';
import { createStorage, EXTENSION_BY_MIME, fileExists, moveFile, newStorageKey, removeFiles, writeFileAtomic } from './storage';

export interface MediaOptions {
  storageDir: string;
  businessName: string;
  logger: Logger;
  /** Decodes allowed at once across all requests (checklist E6). */
  maxConcurrentJobs?: number;
}

const EXAMPLE_NAME = /^[a-f0-9]{16,64}\.webp$/;
const RENDITION_CACHE = 'private, max-age=604800';
const ORIGINAL_CHUNK_BYTES = 1024 * 1024;
const EXAMPLE_CACHE = 'public, max-age=604800';

export async function createMediaService(options: MediaOptions): Promise<MediaService> {
  const storage = createStorage(options.storageDir);
  await storage.ensureLayout();
  // libvips' operation cache would keep decoded 12 MP images alive between uploads; memory matters more here.
  sharp.cache(false);
  const limit = createLimiter(options.maxConcurrentJobs ?? 2);

  const extOf = (mime: string) => EXTENSION_BY_MIME[mime as AcceptedImageType] ?? 'bin';
  const originalPath = (photo: PhotoFiles) => storage.filePath('originals', photo.storageKey, extOf(photo.mimeType));
  const tempPath = () => path.join(storage.tmpDir, `rendition-${randomBytes(8).toString('hex')}.webp`);
  const FOLDER = { thumbnail: 'thumbnails', 'small-thumbnail': 'small-thumbnails', preview: 'previews' } as const;
  const renditionPath = (key: string, kind: RenditionKind) => storage.filePath(FOLDER[kind], key, 'webp');

  async function render(file: UploadedFile): Promise<PhotoRenditions> {
    return limit(async () => {
      try {
        return await renderPhoto(file.path, options.businessName);
      } catch (err) {
        throw decodeError(err, file.originalName);
      }
    });
  }

  /**
   * Validates and renders into temp files beside the storage tree (same file system), so the
   * later commit is four renames and a reader never sees half a file.
   */
  async function prepare(key: string, file: UploadedFile): Promise<PreparedPhoto> {
    const checked = await checkUpload(file);
    const renditions = await render(file);
    const ext = EXTENSION_BY_MIME[checked.mime];
    const temp = { preview: tempPath(), thumbnail: tempPath(), small: tempPath() };
    const discard = () => removeFiles([temp.preview, temp.thumbnail, temp.small]);
    try {
      await fs.writeFile(temp.preview, renditions.preview.data);
      await fs.writeFile(temp.thumbnail, renditions.thumbnail.data);
      await fs.writeFile(temp.small, renditions.smallThumbnail.data);
    } catch (err) {
      await discard();
      throw err;
    }
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
      preview: renditionPath(key, 'preview'),
      thumbnail: renditionPath(key, 'thumbnail'),
      small: renditionPath(key, 'small-thumbnail'),
      original: storage.filePath('originals', key, ext),
    };
    return {
      stored,
      discard,
      async commit() {
        try {
          await moveFile(temp.preview, targets.preview);
          await moveFile(temp.thumbnail, targets.thumbnail);
          await moveFile(temp.small, targets.small);
          // The original by rename: byte-for-byte and without a copy.
          await moveFile(file.path, targets.original);
        } catch (err) {
          options.logger.warn({ err, key }, 'storing a photo failed; its files were removed');
          await removeFiles([targets.preview, targets.thumbnail, targets.small, targets.original]);
          await discard();
          throw err;
        }
        return stored;
      },
    };
  }

  async function place(key: string, file: UploadedFile): Promise<StoredPhoto> {
    return (await prepare(key, file)).commit();
  }

  return {
    storageDir: storage.root,
    tmpDir: storage.tmpDir,

    checkUpload: async (file) => (await checkUploadBasics(file)).mime,
    prepareUpload: (file) => prepare(newStorageKey(), file),

    ingestPhoto: (file) => place(newStorageKey(), file),

    async restorePhoto(photo, file) {
      const stored = await place(photo.storageKey, file);
      // A replacement of another type leaves the old extension's name behind; it is gone or stale.
      if (stored.mimeType !== photo.mimeType) await removeFiles([originalPath(photo)]);
      return stored;
    },

    async removePhoto(photo) {
      await removeFiles([
        originalPath(photo),
        renditionPath(photo.storageKey, 'thumbnail'),
        renditionPath(photo.storageKey, 'small-thumbnail'),
        renditionPath(photo.storageKey, 'preview'),
      ]);
    },

    async makeSmallThumbnail(photo) {
      const original = originalPath(photo);
      if (!(await fileExists(original))) return null;
      const small = await limit(() => renderSmallThumbnail(original, options.businessName));
      await writeFileAtomic(renditionPath(photo.storageKey, 'small-thumbnail'), small.data);
      return { width: small.width, height: small.height, etag: small.etag };
    },

    originalExists: (photo) => fileExists(originalPath(photo)),
    originalPath,

    async openOriginal(photo) {
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(originalPath(photo), 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
      try {
        const { size } = await handle.stat();
        // Originals are read whole; large chunks cut the per-chunk cost of every stream they pass.
        return { stream: handle.createReadStream({ autoClose: true, highWaterMark: ORIGINAL_CHUNK_BYTES }), size };
      } catch (err) {
        await handle.close();
        throw err;
      }
    },

    async sendRendition(ctx, photo, kind) {
      await sendStoredFile(ctx, renditionPath(photo.storageKey, kind), {
        contentType: 'image/webp',
        etag: photo.etag,
        cacheControl: RENDITION_CACHE,
        downloadName: `${kind}.webp`,
        vary: kind === 'preview' ? undefined : 'Save-Data',
      });
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
      await writeFileAtomic(storage.examplePath(name), data);
      return name;
    },

    async removeExampleImage(fileName) {
      if (EXAMPLE_NAME.test(fileName)) await removeFiles([storage.examplePath(fileName)]);
    },

    async sendExampleImage(ctx, fileName) {
      if (!EXAMPLE_NAME.test(fileName)) throw notFound(MSG.imageNotFound);
      // The name is random and never reused, so it is a stable validator on its own.
      await sendStoredFile(ctx, storage.examplePath(fileName), {
        contentType: 'image/webp',
        etag: fileName.slice(0, -'.webp'.length),
        cacheControl: EXAMPLE_CACHE,
        downloadName: 'example.webp',
      });
    },
  };
}
