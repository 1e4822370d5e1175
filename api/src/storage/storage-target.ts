import path from 'node:path';
import type { S3Target } from './s3-storage';

export type StorageTarget = { kind: 'file'; root: string } | ({ kind: 's3' } & S3Target);

export interface StorageEnv {
  STORAGE_URL?: string;
  /** The folder of `file:` (the default `data/storage`), resolved against `root`. */
  storageDir: string;
  S3_ENDPOINT?: string;
  S3_REGION?: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
  S3_FORCE_PATH_STYLE?: boolean;
}

/** S3 bucket names: 3 to 63 lower-case letters, digits, dots and hyphens. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * STORAGE_URL: `file:` (STORAGE_DIR, by default data/storage), `file:<folder>`, or
 * `s3://bucket/prefix` with the S3_* settings. Anything else stops the server with a clear message.
 */
export function parseStorageTarget(env: StorageEnv, root: string): StorageTarget {
  const url = (env.STORAGE_URL ?? 'file:').trim();
  if (url.startsWith('file:')) {
    const folder = url.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
    return { kind: 'file', root: folder ? path.resolve(root, folder) : env.storageDir };
  }
  if (url.startsWith('s3://')) {
    const rest = url.slice('s3://'.length);
    const slash = rest.indexOf('/');
    const bucket = slash === -1 ? rest : rest.slice(0, slash);
    const folder = (slash === -1 ? '' : rest.slice(slash + 1)).replace(/^\/+|\/+$/g, '');
    if (!BUCKET.test(bucket)) throw new Error(`STORAGE_URL: "${bucket}" is not a valid bucket name (3-63 lower-case letters, digits, dots, hyphens)`);
    if (folder && !/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(folder)) {
      throw new Error('STORAGE_URL: the prefix after the bucket may hold only letters, digits, ".", "_", "-" and "/"');
    }
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
    }
    if (env.S3_ENDPOINT && !/^https?:\/\/[^/]+/.test(env.S3_ENDPOINT)) throw new Error('S3_ENDPOINT must be an http(s) URL, e.g. http://minio:9000');
    return {
      kind: 's3',
      bucket,
      prefix: folder ? `${folder}/` : '',
      endpoint: env.S3_ENDPOINT ? env.S3_ENDPOINT.replace(/\/+$/, '') : null,
      region: env.S3_REGION ?? 'us-east-1',
      accessKeyId: env.S3_ACCESS_KEY_ID ?? null,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? null,
      forcePathStyle: env.S3_FORCE_PATH_STYLE ?? false,
    };
  }
  throw new Error(`STORAGE_URL must be file: or s3://bucket/prefix, got ${url.split(':')[0]}:`);
}
