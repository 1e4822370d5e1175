import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import formidable, { errors as formidableErrors, type File } from 'formidable';
import { MSG } from '../../contract/messages';
import { UPLOAD_MAX_FILE_BYTES, UPLOAD_MAX_FILES } from '../../contract/constants';
import { AppError, badRequest, tooLarge, unsupportedType } from './errors';
import type { AppContext } from './context';

export interface UploadedFile {
  /** Path of the streamed temp file (same file system as storage, so a rename is enough). */
  path: string;
  /** The client's name, used for display and matching only; never as a path. */
  originalName: string;
  size: number;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: Record<string, UploadedFile[]>;
  /** Removes every temp file of this request; safe to call twice. */
  cleanup(): Promise<void>;
}

export interface MultipartLimits {
  maxFiles?: number;
  maxFileBytes?: number;
  maxTotalBytes?: number;
  maxFields?: number;
  /**
   * Called as each file finishes streaming to disk, before the whole form is parsed, so work on
   * early files can overlap the upload of later ones. The file is removed by cleanup() as usual.
   */
  onFile?: (field: string, file: UploadedFile) => void;
}

/**
 * Streams a multipart request to a private temp folder with every limit set explicitly (checklist
 * E1, pitfall P4). The caller must call cleanup() in a finally block; on a parse failure the folder
 * is removed here.
 */
export async function readMultipart(ctx: AppContext, tmpRoot: string, limits: MultipartLimits = {}): Promise<MultipartBody> {
  if (!ctx.is('multipart/form-data')) throw unsupportedType('Send this form as multipart/form-data');
  await fs.mkdir(tmpRoot, { recursive: true });
  const dir = await fs.mkdtemp(path.join(tmpRoot, 'upload-'));
  const cleanup = () => fs.rm(dir, { recursive: true, force: true });
  const maxFileBytes = limits.maxFileBytes ?? UPLOAD_MAX_FILE_BYTES;
  const form = formidable({
    uploadDir: dir,
    keepExtensions: false,
    maxFiles: limits.maxFiles ?? UPLOAD_MAX_FILES,
    maxFileSize: maxFileBytes,
    maxTotalFileSize: limits.maxTotalBytes ?? 1024 * 1024 * 1024,
    maxFields: limits.maxFields ?? 1000,
    maxFieldsSize: 2 * 1024 * 1024,
    allowEmptyFiles: true,
    minFileSize: 0,
    multiples: true,
    filename: () => randomUUID(),
  });
  let current = '';
  form.on('fileBegin', (_name, file) => {
    current = file.originalFilename ?? 'file';
  });
  const onFile = limits.onFile;
  if (onFile) {
    form.on('file', (name, file) => onFile(name, { path: file.filepath, originalName: safeDisplayName(file.originalFilename), size: file.size }));
  }
  try {
    const [rawFields, rawFiles] = await form.parse(ctx.req);
    const fields: Record<string, string> = {};
    for (const [key, value] of Object.entries(rawFields)) {
      const first = Array.isArray(value) ? value[0] : value;
      if (first !== undefined) fields[key] = first;
    }
    const files: Record<string, UploadedFile[]> = {};
    for (const [key, value] of Object.entries(rawFiles)) {
      const list = (Array.isArray(value) ? value : value ? [value] : []) as File[];
      files[key] = list.map((file) => ({
        path: file.filepath,
        originalName: safeDisplayName(file.originalFilename),
        size: file.size,
      }));
    }
    return { fields, files, cleanup };
  } catch (err) {
    await cleanup();
    throw translate(err, current);
  }
}

/** A client file name reduced to something safe to show and compare: its last segment, no control chars. */
export function safeDisplayName(name: string | null | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return cleaned || 'unnamed';
}

function translate(err: unknown, currentFile: string): Error {
  if (err instanceof AppError) return err;
  const code = (err as { code?: number }).code;
  switch (code) {
    case formidableErrors.biggerThanMaxFileSize:
      return tooLarge(MSG.fileTooLarge(currentFile || 'A file'));
    case formidableErrors.biggerThanTotalMaxFileSize:
      return tooLarge('The upload is too large. Send the photos in smaller batches.');
    case formidableErrors.maxFilesExceeded:
      return tooLarge(MSG.tooManyFiles);
    case formidableErrors.maxFieldsExceeded:
    case formidableErrors.maxFieldsSizeExceeded:
      return tooLarge('The form has too many fields');
    case formidableErrors.aborted:
      return badRequest('The upload was interrupted', undefined, 'UPLOAD_ABORTED');
    default:
      return badRequest('The upload could not be read as a multipart form', undefined, 'MALFORMED_MULTIPART');
  }
}
