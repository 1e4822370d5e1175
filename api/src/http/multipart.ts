import { createWriteStream, type WriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import formidable, { errors as formidableErrors, type File, type Part } from 'formidable';
import { HARDENING_MSG, MSG } from '../../contract/messages';
import { UPLOAD_MAX_FILE_BYTES, UPLOAD_MAX_FILES } from '../../contract/constants';
import { AppError, badRequest, tooLarge, unsupportedType } from './errors';
import type { AppContext } from './context';
import { refuseDeclaredOversize, refuseEncodedBody, watchBodyProgress } from './request-body';

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
  /** The whole request, files and form overhead: refused by Content-Length, else counted as it arrives. */
  maxRequestBytes?: number;
  maxFields?: number;
  /** Answer for a request over maxRequestBytes. */
  tooLargeMessage?: string;
  /** Answer for more than maxFiles files. */
  tooManyFilesMessage?: string;
  /** How long the body may stall before it is cut with 408 (0: no watch). */
  bodyTimeoutMs?: number;
  /**
   * Called as each file finishes streaming to disk, before the whole form is parsed, so work on
   * early files can overlap the upload of later ones. The file is removed by cleanup() as usual.
   */
  onFile?: (field: string, file: UploadedFile) => void;
  /** Called as each text field arrives, before the files after it have streamed in. */
  onField?: (name: string, value: string) => void;
}

/** Bytes of a file the request may run ahead of the disk (see uploadFileStream). */
const AHEAD_OF_DISK_BYTES = 4 * 1024 * 1024;

/**
 * The temp file of one uploaded file. formidable waits for each chunk's write to be acknowledged
 * before it reads the next one from the socket, so with a plain file stream the upload went at the
 * pace of one small disk write at a time. This stream acknowledges a chunk as soon as it is queued,
 * while less than AHEAD_OF_DISK_BYTES wait for the disk (then on 'drain'), and hands the disk the
 * queued chunks in one write. The file is complete when formidable has ended it (which waits for
 * every write), before it reports the file; a failed write fails the form as before.
 */
function uploadFileStream(filepath: string): WriteStream {
  const stream = createWriteStream(filepath, { flags: 'wx', highWaterMark: AHEAD_OF_DISK_BYTES });
  const write = stream.write.bind(stream) as (chunk: Buffer, cb?: (err?: Error | null) => void) => boolean;
  (stream as unknown as { write: (chunk: Buffer, cb: () => void) => boolean }).write = (chunk, cb) => {
    const more = write(chunk);
    // Never after the file was destroyed (a refused request): formidable would resume reading it.
    if (more) process.nextTick(() => stream.destroyed || cb());
    else stream.once('drain', cb);
    return more;
  };
  return stream;
}

/** formidable stops a parse (and destroys its open files) only through this method. */
interface Stoppable {
  _error(err: Error): void;
  _handlePart(part: Part): Promise<void>;
}

/**
 * Streams a multipart request to a private temp folder with every limit set explicitly and
 * enforced while the bytes arrive: the request's declared size before
 * anything is read, each file's size as it grows (formidable itself checks only when a file
 * ends), the whole request as it comes in, and a body that stalls. A refused request stops being
 * read at once. The caller must call cleanup() in a finally block; on a failure the folder is
 * removed here.
 */
export async function readMultipart(ctx: AppContext, tmpRoot: string, limits: MultipartLimits = {}): Promise<MultipartBody> {
  if (!ctx.is('multipart/form-data')) throw unsupportedType(HARDENING_MSG.multipartRequired);
  refuseEncodedBody(ctx);
  const maxFileBytes = limits.maxFileBytes ?? UPLOAD_MAX_FILE_BYTES;
  const maxRequestBytes = limits.maxRequestBytes ?? 1024 * 1024 * 1024;
  const tooLargeMessage = limits.tooLargeMessage ?? HARDENING_MSG.requestTooLarge;
  refuseDeclaredOversize(ctx, maxRequestBytes, tooLargeMessage);

  await fs.mkdir(tmpRoot, { recursive: true });
  const dir = await fs.mkdtemp(path.join(tmpRoot, 'upload-'));
  const cleanup = () => fs.rm(dir, { recursive: true, force: true });
  const form = formidable({
    uploadDir: dir,
    keepExtensions: false,
    maxFiles: limits.maxFiles ?? UPLOAD_MAX_FILES,
    maxFileSize: maxFileBytes,
    maxTotalFileSize: maxRequestBytes,
    maxFields: limits.maxFields ?? 1000,
    maxFieldsSize: 2 * 1024 * 1024,
    allowEmptyFiles: true,
    minFileSize: 0,
    multiples: true,
    filename: () => randomUUID(),
    fileWriteStreamHandler: (file) => uploadFileStream((file as unknown as { filepath: string }).filepath),
  });
  const stoppable = form as unknown as Stoppable;
  let refused: AppError | null = null;
  const refuse = (err: AppError) => {
    if (refused) return;
    refused = err;
    // Stop reading the socket now; the answer closes the connection (closeUnreadBodies).
    ctx.req.pause();
    stoppable._error(err);
  };

  form.onPart = (part: Part) => {
    if (part.mimetype) {
      const name = safeDisplayName(part.originalFilename);
      let bytes = 0;
      // Registered before formidable's own listener, so an oversized chunk is never written.
      part.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > maxFileBytes) refuse(tooLarge(MSG.fileTooLarge(name)));
      });
    }
    void stoppable._handlePart(part);
  };
  // Whatever formidable refuses (too many files or fields, a broken form), the rest of the request
  // is not read: the answer closes the connection (closeUnreadBodies).
  form.on('error', () => ctx.req.pause());
  form.on('progress', (received: number) => {
    if (received > maxRequestBytes) refuse(tooLarge(tooLargeMessage));
  });

  let current = '';
  // formidable lists a field's files as each one's write to disk ends, which on a busy machine is
  // not always the order they were sent in; they are put back in the order their parts began.
  const begunAt = new Map<string, number>();
  form.on('fileBegin', (_name, file) => {
    current = file.originalFilename ?? 'file';
    begunAt.set(file.filepath, begunAt.size);
  });
  const onFile = limits.onFile;
  if (onFile) {
    form.on('file', (name, file) => onFile(name, { path: file.filepath, originalName: safeDisplayName(file.originalFilename), size: file.size }));
  }
  const onField = limits.onField;
  if (onField) form.on('field', (name, value) => onField(name, value));
  const stopWatching = watchBodyProgress(ctx.req, limits.bodyTimeoutMs ?? 0);
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
      const sent = (file: File) => begunAt.get(file.filepath) ?? Number.MAX_SAFE_INTEGER;
      files[key] = [...list].sort((a, b) => sent(a) - sent(b)).map((file) => ({
        path: file.filepath,
        originalName: safeDisplayName(file.originalFilename),
        size: file.size,
      }));
    }
    return { fields, files, cleanup };
  } catch (err) {
    await cleanup();
    throw refused ?? translate(err, current, limits);
  } finally {
    stopWatching();
  }
}

/** A client file name reduced to something safe to show and compare: its last segment, no control chars. */
function safeDisplayName(name: string | null | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return cleaned || 'unnamed';
}

function translate(err: unknown, currentFile: string, limits: MultipartLimits): Error {
  if (err instanceof AppError) return err;
  const code = (err as { code?: number }).code;
  switch (code) {
    case formidableErrors.biggerThanMaxFileSize:
      return tooLarge(MSG.fileTooLarge(currentFile || HARDENING_MSG.unnamedFile));
    case formidableErrors.biggerThanTotalMaxFileSize:
      return tooLarge(limits.tooLargeMessage ?? HARDENING_MSG.requestTooLarge);
    case formidableErrors.maxFilesExceeded:
      return tooLarge(limits.tooManyFilesMessage ?? MSG.tooManyFiles);
    case formidableErrors.maxFieldsExceeded:
    case formidableErrors.maxFieldsSizeExceeded:
      return tooLarge(HARDENING_MSG.tooManyFormFields);
    case formidableErrors.aborted:
      return badRequest(HARDENING_MSG.uploadInterrupted, undefined, 'UPLOAD_ABORTED');
    default:
      return badRequest(HARDENING_MSG.multipartUnreadable, undefined, 'MALFORMED_MULTIPART');
  }
}
