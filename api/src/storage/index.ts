import path from 'node:path';
import { createFileStorage } from './file-storage';
import { createS3Storage } from './s3-storage';
import type { ObjectStorage } from './object-storage';
import type { StorageTarget } from './storage-target';

export type { ObjectStorage, StoredObjectStream, PutOptions } from './object-storage';
export type { StorageTarget } from './storage-target';
export { parseStorageTarget } from './storage-target';

/**
 * The store STORAGE_URL names. On S3, uploads still arrive on local disk first (request bodies
 * are streamed to a file while they are checked), in DATA_DIR/tmp.
 */
export function createObjectStorage(target: StorageTarget, dataDir: string): ObjectStorage {
  if (target.kind === 'file') return createFileStorage(target.root);
  return createS3Storage(target, path.join(dataDir, 'tmp'));
}
