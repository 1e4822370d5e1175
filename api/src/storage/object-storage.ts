import type { Readable } from 'node:stream';

/**
 * Where photos, renditions and example images live, behind one interface: a local folder
 * (`file:`, the embedded default) or an S3-compatible bucket (`s3://bucket/prefix`). Keys are
 * relative, slash-separated names such as `originals/3f/a2/3fa2….jpg`; both stores lay them out
 * the same way, so a folder copies into a bucket one file per object.
 */
export interface ObjectStorage {
  readonly kind: 'file' | 's3';
  /** Where the objects are, without secrets: `file:/srv/photos` or `s3://bucket/prefix`. */
  readonly location: string;
  /**
   * A local folder for files on their way in (request bodies, renders). On `file:` it is on the
   * same file system as the objects, so storing a local file there is a rename.
   */
  readonly scratchDir: string;
  /** Creates the folders, or checks that the bucket answers; throws a clear error otherwise. */
  ensureReady(): Promise<void>;
  /**
   * Stores a local file under `key`, whole or not at all (a reader never sees half an object).
   * With `move`, the local file is consumed: renamed on `file:`, removed after the upload on S3.
   */
  putFile(key: string, localPath: string, options: PutOptions & { move?: boolean }): Promise<void>;
  putBuffer(key: string, data: Buffer, options: PutOptions): Promise<void>;
  /**
   * The whole object in memory; null when absent. For small objects (renditions, example images)
   * that are sent in one piece: no stream to set up and tear down per image.
   */
  read(key: string): Promise<Buffer | null>;
  /** The object as a stream that reads as fast as it is consumed, with its size; null when absent. */
  open(key: string, options?: OpenOptions): Promise<StoredObjectStream | null>;
  /** Size of the object; null when absent. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes objects; absent ones are fine, other failures surface. */
  remove(keys: string[]): Promise<void>;
  /** Every object whose key starts with `prefix`, in no promised order. */
  list(prefix?: string): AsyncIterable<{ key: string; size: number }>;
  /** For health checks: resolves when the store answers, throws when it does not. */
  check(signal?: AbortSignal): Promise<void>;
  close(): void;
}

export interface PutOptions {
  contentType: string;
}

export interface OpenOptions {
  /** Read-ahead per chunk; larger for whole-file copies, the platform default for small images. */
  highWaterMark?: number;
}

export interface StoredObjectStream {
  stream: Readable;
  size: number;
}

/** Keys are built by the server; refuse anything that could climb out of the store or look odd to S3. */
export function assertObjectKey(key: string): void {
  if (!/^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`Invalid object key: ${key}`);
  }
}
