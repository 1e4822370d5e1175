import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AcceptedImageType } from '../../contract/constants';

export type StorageKind = 'originals' | 'thumbnails' | 'small-thumbnails' | 'previews';

export const EXTENSION_BY_MIME: Record<AcceptedImageType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
};

/** 128 bits from the CSPRNG: names in storage never come from the client and cannot be guessed. */
export function newStorageKey(): string {
  return randomBytes(16).toString('hex');
}

/** Keys are generated here, but a row could be tampered with: refuse anything that is not plain hex. */
export function assertStorageKey(key: string): void {
  if (!/^[a-f0-9]{16,64}$/.test(key)) throw new Error('Invalid storage key');
}

/**
 * The object key of a photo's file: `<kind>/<key[0..2]>/<key[2..4]>/<key>.<ext>`. Sharding keeps
 * folders small with many photos on `file:`, and the same keys in a bucket let a folder be
 * copied into it one file per object.
 */
export function objectKey(kind: StorageKind, key: string, ext: string): string {
  assertStorageKey(key);
  return `${kind}/${key.slice(0, 2)}/${key.slice(2, 4)}/${key}.${ext}`;
}

/** The object key of an example product image (a generated `<hex>.webp` name). */
export function exampleKey(fileName: string): string {
  return `examples/${fileName}`;
}

/**
 * Where `objectKey` lives inside a `file:` storage folder, for tools that read the folder
 * directly (the serving benchmark's bare file server). The server itself goes through the
 * storage interface (api/src/storage).
 */
export function createStorage(root: string) {
  return {
    root,
    filePath: (kind: StorageKind, key: string, ext: string) => path.join(root, ...objectKey(kind, key, ext).split('/')),
  };
}
