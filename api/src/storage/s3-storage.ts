import fs from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertObjectKey, type ObjectStorage } from './object-storage';
import { StorageUnavailableError } from './errors';

export interface S3Target {
  bucket: string;
  /** '' or a folder inside the bucket, ending in '/'. */
  prefix: string;
  /** Unset: AWS's own endpoint for the region. MinIO, Ceph, Garage, R2: their URL. */
  endpoint: string | null;
  region: string;
  /** Unset: the SDK's default credential chain (environment, instance role). */
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** bucket in the path (MinIO, Ceph, Garage) rather than in the host name (AWS, R2). */
  forcePathStyle: boolean;
}

/** Multipart parts: originals up to 10 MB go in two parts, each retried on its own. */
const PART_BYTES = 8 * 1024 * 1024;
/** DeleteObjects takes at most this many keys per call. */
const DELETE_BATCH = 1000;

/**
 * Objects in an S3-compatible bucket under `prefix`, with the AWS SDK v3. Nothing is public and
 * nothing is presigned: the API reads each object and streams it to a client it has checked.
 */
export function createS3Storage(target: S3Target, scratchDir: string): ObjectStorage {
  const agentOptions = { keepAlive: true, maxSockets: 64 };
  const client = new S3Client({
    region: target.region,
    endpoint: target.endpoint ?? undefined,
    forcePathStyle: target.forcePathStyle,
    credentials:
      target.accessKeyId && target.secretAccessKey ? { accessKeyId: target.accessKeyId, secretAccessKey: target.secretAccessKey } : undefined,
    // Checksums only where S3 requires them: MinIO, Ceph, Garage and R2 do not all accept the
    // newer trailing-checksum uploads, and objects are verified by size and content anyway.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    requestHandler: {
      connectionTimeout: 5_000,
      requestTimeout: 60_000,
      httpAgent: new http.Agent(agentOptions),
      httpsAgent: new https.Agent(agentOptions),
    },
  });
  const Bucket = target.bucket;
  const fullKey = (key: string) => {
    assertObjectKey(key);
    return `${target.prefix}${key}`;
  };
  const where = `s3://${Bucket}/${target.prefix}${target.endpoint ? ` at ${target.endpoint}` : ''}`;

  return {
    kind: 's3',
    location: `s3://${Bucket}/${target.prefix}`,
    scratchDir,

    async ensureReady() {
      await fs.mkdir(scratchDir, { recursive: true });
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (err) {
        throw new Error(`Object storage ${where} is not usable: ${describeS3Error(err)}`, { cause: err });
      }
    },

    async putFile(key, localPath, options) {
      const Key = fullKey(key);
      const body = createReadStream(localPath);
      try {
        // Streamed: one part in memory at a time, not the whole file.
        const upload = new Upload({
          client,
          params: { Bucket, Key, Body: body, ContentType: options.contentType },
          partSize: PART_BYTES,
          queueSize: 2,
          leavePartsOnError: false,
        });
        await upload.done();
      } catch (err) {
        throw unavailable(err);
      } finally {
        body.destroy();
      }
      if (options.move) await fs.rm(localPath, { force: true });
    },

    async putBuffer(key, data, options) {
      await client
        .send(new PutObjectCommand({ Bucket, Key: fullKey(key), Body: data, ContentType: options.contentType, ContentLength: data.length }))
        .catch((err: unknown) => Promise.reject(unavailable(err)));
    },

    read: (key) =>
      nullWhenMissing(async () => {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: fullKey(key) }));
        if (!answer.Body) return null;
        return Buffer.from(await answer.Body.transformToByteArray());
      }),

    open: (key) =>
      nullWhenMissing(async () => {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: fullKey(key) }));
        const stream = answer.Body as Readable | undefined;
        if (!stream) return null;
        return { stream, size: Number(answer.ContentLength ?? 0) };
      }),

    stat: (key) =>
      nullWhenMissing(async () => {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: fullKey(key) }));
        return { size: Number(head.ContentLength ?? 0) };
      }, 'head'),

    async remove(keys) {
      for (let i = 0; i < keys.length; i += DELETE_BATCH) {
        const Objects = keys.slice(i, i + DELETE_BATCH).map((key) => ({ Key: fullKey(key) }));
        const answer = await client
          .send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }))
          .catch((err: unknown) => Promise.reject(unavailable(err)));
        const failed = (answer.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
        if (failed.length > 0) throw new Error(`Removing ${failed.length} object(s) from ${where} failed: ${failed[0]?.Code ?? ''} ${failed[0]?.Key ?? ''}`);
      }
    },

    async *list(prefix = '') {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: `${target.prefix}${prefix}`, ContinuationToken }));
        for (const item of page.Contents ?? []) {
          if (item.Key === undefined) continue;
          yield { key: item.Key.slice(target.prefix.length), size: Number(item.Size ?? 0) };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },

    async check(signal) {
      await client.send(new HeadBucketCommand({ Bucket }), { abortSignal: signal });
    },

    close() {
      client.destroy();
    },
  };
}

/** A refused connection, a timeout or a server error: the store, not the request, is at fault. */
/** A read that answers null for an object that is not there; any other failure is the storage being unavailable. */
async function nullWhenMissing<T>(read: () => Promise<T | null>, method: 'get' | 'head' = 'get'): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    if (isNotFound(err, method)) return null;
    throw unavailable(err);
  }
}

function unavailable(err: unknown): unknown {
  if (err instanceof S3ServiceException) return err.$metadata.httpStatusCode !== undefined && err.$metadata.httpStatusCode >= 500 ? new StorageUnavailableError(err) : err;
  return err instanceof Error && (err as NodeJS.ErrnoException).code !== undefined ? new StorageUnavailableError(err) : err;
}

/**
 * Whether a read of one object failed because it is not there. S3 answers a missing key with 403
 * AccessDenied rather than 404 when the caller may not list the bucket (no s3:ListBucket, or a
 * policy that grants a prefix only), so that it does not reveal which keys exist; for the app that
 * is the same "not there". On a GET, wrong credentials are other codes (InvalidAccessKeyId,
 * SignatureDoesNotMatch) and stay failures; a HEAD's 403 has no body to tell them apart, and the
 * health check (HeadBucket) is what reports a bucket the app cannot reach.
 */
function isNotFound(err: unknown, method: 'get' | 'head'): boolean {
  if (!(err instanceof S3ServiceException)) return false;
  const status = err.$metadata.httpStatusCode;
  if (err.name === 'NoSuchKey' || err.name === 'NotFound' || status === 404) return true;
  return status === 403 && (method === 'head' || err.name === 'AccessDenied');
}

function describeS3Error(err: unknown): string {
  if (err instanceof S3ServiceException) {
    const status = err.$metadata.httpStatusCode;
    if (status === 404) return 'the bucket does not exist';
    if (status === 403) return 'access denied (check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)';
    return `${err.name} (HTTP ${status ?? '?'})`;
  }
  return err instanceof Error ? err.message : String(err);
}
