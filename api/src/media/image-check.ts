import fs from 'node:fs/promises';
import sharp, { type Metadata } from 'sharp';
import { MSG } from '../../contract/messages';
import { UPLOAD_MAX_FILE_BYTES, UPLOAD_MAX_GIF_FRAMES, UPLOAD_MAX_PIXELS, type AcceptedImageType } from '../../contract/constants';
import { badRequest, tooLarge, unsupportedType } from '../http/errors';
import type { UploadedFile } from '../http/multipart';
import { captureTimeOf } from './capture-time';

/** Decoder options used for every read of an upload: the pixel limit, and a damaged file is refused rather than half read. */
export const DECODE_OPTIONS = { limitInputPixels: UPLOAD_MAX_PIXELS, failOn: 'error' } as const;

export interface CheckedImage {
  mime: AcceptedImageType;
  /** Display size after EXIF orientation. */
  width: number;
  height: number;
  fileSize: number;
  /** EXIF DateTimeOriginal in ms, for the capture order at the shoot; null without one. */
  takenAt: number | null;
}

const SHARP_FORMAT: Record<AcceptedImageType, string> = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/gif': 'gif' };

/** The type from the first bytes of the content; the client's name and Content-Type are ignored (E2). */
export function sniffImageType(head: Uint8Array): AcceptedImageType | null {
  const starts = (bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0x47, 0x49, 0x46, 0x38]) && (head[4] === 0x37 || head[4] === 0x39) && head[5] === 0x61) return 'image/gif';
  return null;
}

/** Cheap checks that need no decoder: size, emptiness, magic bytes. Run over a whole batch first. */
export async function checkUploadBasics(file: UploadedFile): Promise<{ mime: AcceptedImageType; fileSize: number }> {
  const { size } = await fs.stat(file.path);
  if (size === 0) throw badRequest(MSG.fileEmpty(file.originalName), undefined, 'FILE_EMPTY');
  if (size > UPLOAD_MAX_FILE_BYTES) throw tooLarge(MSG.fileTooLarge(file.originalName));
  const handle = await fs.open(file.path, 'r');
  const head = new Uint8Array(16);
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  const mime = sniffImageType(head);
  if (!mime) throw unsupportedType(MSG.fileNotImage(file.originalName));
  return { mime, fileSize: size };
}

/**
 * Reads the header with sharp (no pixel decode): the format must agree with the magic bytes and
 * the pixel count, over every GIF frame, must stay under the limit, so a small file that decodes
 * into gigabytes is never decoded (docs/images.md, "Upload checks").
 */
export async function checkUpload(file: UploadedFile): Promise<CheckedImage> {
  const basics = await checkUploadBasics(file);
  let meta: Metadata;
  try {
    meta = await sharp(file.path, DECODE_OPTIONS).metadata();
  } catch (err) {
    throw decodeError(err, file.originalName);
  }
  if (meta.format !== SHARP_FORMAT[basics.mime] || !meta.width || !meta.height) {
    throw badRequest(MSG.fileCorrupt(file.originalName), undefined, 'FILE_CORRUPT');
  }
  const pages = meta.pages ?? 1;
  const pixels = meta.width * (meta.pageHeight ?? meta.height) * pages;
  if (pixels > UPLOAD_MAX_PIXELS || pages > UPLOAD_MAX_GIF_FRAMES) {
    throw badRequest(MSG.fileTooManyPixels(file.originalName), undefined, 'TOO_MANY_PIXELS');
  }
  const oriented = meta.autoOrient ?? { width: meta.width, height: meta.height };
  return { mime: basics.mime, width: oriented.width, height: oriented.height, fileSize: basics.fileSize, takenAt: captureTimeOf(meta.exif) };
}

/** libvips failures on an upload are the file's fault: a 400 naming it, never a 500. */
export function decodeError(err: unknown, name: string) {
  const message = err instanceof Error ? err.message : String(err);
  if (/pixel limit/i.test(message)) return badRequest(MSG.fileTooManyPixels(name), undefined, 'TOO_MANY_PIXELS');
  return badRequest(MSG.fileCorrupt(name), undefined, 'FILE_CORRUPT');
}
