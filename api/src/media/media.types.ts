import type { Readable } from 'node:stream';
import type { UploadedFile } from '../http/multipart';
import type { AcceptedImageType } from '../../contract/constants';

export type RenditionKind = 'thumbnail' | 'small-thumbnail' | 'preview';

/** What the photo row stores about its files. */
export interface StoredPhoto {
  storageKey: string;
  /** Generated file name of the original: <storageKey>.<jpg|png|gif> */
  filename: string;
  mimeType: 'image/jpeg' | 'image/png' | 'image/gif';
  fileSize: number;
  width: number;
  height: number;
  thumbWidth: number;
  thumbHeight: number;
  thumbEtag: string;
  previewEtag: string;
  smallThumbWidth: number;
  smallThumbHeight: number;
  smallThumbEtag: string;
}

/** The small thumbnail made afterwards for a photo stored before it existed. */
export interface SmallThumbnail {
  width: number;
  height: number;
  etag: string;
}

/** A fully validated upload whose renditions are made but not yet in storage. */
export interface PreparedPhoto {
  readonly stored: StoredPhoto;
  /** When it was taken (EXIF DateTimeOriginal, camera clock read as UTC, ms); null without EXIF. */
  readonly takenAt: number | null;
  /**
   * The text of a QR code in the photo that `accept` takes (a student's card), looked for in a
   * grey copy of the pixels the renditions were made from; null when there is none, or when the
   * upload was prepared without the card scan.
   */
  findCardText(accept: (text: string) => boolean): Promise<string | null>;
  /** Moves the renditions and the original into storage; on failure nothing of it remains. */
  commit(): Promise<StoredPhoto>;
  /** Drops the renditions held for commit (after a commit there is nothing left to drop). */
  discard(): Promise<void>;
}

export interface PhotoFiles {
  storageKey: string;
  mimeType: string;
}

export interface OriginalFile {
  stream: Readable;
  size: number;
}

/**
 * A stored file to answer with, described rather than sent: `sendFile()` in
 * api/src/http/send-file.ts writes it to the answer, so media never sees a request. Either read
 * whole on demand (renditions, example images) or streamed (a downloaded original).
 */
export type FileResponse = WholeFileResponse | StreamedFileResponse;

interface FileDescription {
  contentType: string;
  cacheControl: string;
  /** A server-chosen name for `Content-Disposition`, never the client's. */
  fileName: string;
  /** `inline` (shown in the page) unless said otherwise; `attachment` is saved under fileName. */
  disposition?: 'inline' | 'attachment';
}

/** A small file with a validator: its bytes are fetched only when the answer is not a 304. */
export interface WholeFileResponse extends FileDescription {
  /** Strong validator, bare (sendFile quotes it). */
  etag: string;
  /** A request header the choice of file depended on. */
  vary?: string;
  /**
   * The bytes, read in one piece (renditions and example images are small enough to send in one
   * write); throws the JSON 404 when the file is gone from storage.
   */
  read(): Promise<Buffer>;
}

/** A large file already opened, sent as a stream of its declared size (no validator, no 304). */
export interface StreamedFileResponse extends FileDescription {
  stream: Readable;
  size: number;
}

/**
 * The only part of the API that touches sharp and the stored photos (docs/architecture.md, "Media
 * is the only sharp user"), through the storage interface (a folder or a bucket). Implemented in
 * media.service.ts.
 */
export interface MediaService {
  /** Where multipart uploads are streamed (on `file:` the same file system as the storage folder). */
  readonly tmpDir: string;
  /**
   * Validates an uploaded file by content (JPG/PNG/GIF magic bytes, size, pixel limit, decodable),
   * stores the original byte-for-byte under a generated key and makes the watermarked thumbnail and
   * preview from one decode. Throws an AppError naming the file; on any failure nothing is left.
   */
  ingestPhoto(file: UploadedFile): Promise<StoredPhoto>;
  /**
   * The cheap part of the validation (empty, size, magic bytes), without a decoder: lets a batch
   * refuse a bad file before anything of it is stored.
   */
  checkUpload(file: UploadedFile): Promise<AcceptedImageType>;
  /**
   * The decode-heavy part of ingestPhoto, stored nowhere yet: a batch prepares every file (while
   * later ones are still uploading) and commits only when all of them passed. `cardScan` is asked,
   * when the decode ends, whether to keep what the card scan needs (a copy of the decode); the
   * upload route learns it from the form's first field while the files stream in. Without an
   * answer the copy is kept: nothing ever waits for it.
   */
  prepareUpload(file: UploadedFile, options?: { cardScan?: () => boolean }): Promise<PreparedPhoto>;
  /** Puts a replacement original in place for an existing key and rebuilds its renditions. */
  restorePhoto(photo: PhotoFiles, file: UploadedFile): Promise<StoredPhoto>;
  /**
   * Makes the small thumbnail of a photo stored before it existed, from its original (the same
   * steps as an upload). Null when the original is gone: a restore makes all renditions anew.
   */
  makeSmallThumbnail(photo: PhotoFiles): Promise<SmallThumbnail | null>;
  /** Removes the original and renditions (missing files are fine). */
  removePhoto(photo: PhotoFiles): Promise<void>;
  /** Whether the original is present in storage. */
  originalExists(photo: PhotoFiles): Promise<boolean>;
  /**
   * The original, byte for byte, as a stream that reads only as fast as it is consumed, with its
   * size; null when the file is gone from storage. The caller must consume or destroy the stream.
   */
  openOriginal(photo: PhotoFiles): Promise<OriginalFile | null>;
  /**
   * The original as a download to send: an attachment named fileName, never cached, streamed;
   * null when the file is gone from storage.
   */
  originalDownload(photo: PhotoFiles, fileName: string): Promise<StreamedFileResponse | null>;
  /** A stored rendition to send, with its ETag and private caching (304 on If-None-Match). */
  rendition(photo: PhotoFiles & { etag: string }, kind: RenditionKind): WholeFileResponse;
  /** Ends the card scan's worker thread (the runtime's close); a scan after it runs on the event loop. */
  close(): Promise<void>;
  /** Validates an example product image, stores it (no watermark) and returns its file name. */
  storeExampleImage(file: UploadedFile): Promise<string>;
  removeExampleImage(fileName: string): Promise<void>;
  /** /api/example-images/{file} to send, publicly cacheable; a 404 for a name that is not an example image's. */
  exampleImage(fileName: string): WholeFileResponse;
}
