import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import S3rver from 's3rver';
import { CreateBucketCommand, DeleteBucketCommand, DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';

/** s3rver's fixed credentials: it checks every request's signature against them. */
const S3RVER_KEY = 'S3RVER';

/**
 * A real S3-protocol peer for a test file: s3rver in this process on a free port, with its own
 * folder and one bucket; or, when TEST_S3_ENDPOINT is set (MinIO where it is installed), a fresh
 * bucket on that server. `env(prefix)` is what a server process needs to store photos there.
 */
export interface S3TestServer {
  endpoint: string;
  bucket: string;
  env(prefix?: string): Record<string, string>;
  /** An SDK client on the same bucket, so a test can look at or remove objects behind the API's back. */
  client: S3Client;
  /** Stops answering (connections refused) until start() again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startS3Server(): Promise<S3TestServer> {
  const external = process.env.TEST_S3_ENDPOINT;
  const bucket = `photos-test-${randomBytes(4).toString('hex')}`;
  if (external) return externalBucket(external, bucket);

  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 's3rver-'));
  const make = (port: number) => new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: bucket }] });
  let server = make(0);
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const credentials = { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY };
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' });
  let running = true;
  return {
    endpoint,
    bucket,
    client,
    env: (prefix = '') => s3Env(endpoint, bucket, prefix, credentials),
    async stop() {
      if (!running) return;
      running = false;
      await server.close();
    },
    async start() {
      if (running) return;
      server = make(port);
      await server.run();
      running = true;
    },
    async close() {
      client.destroy();
      if (running) await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

function s3Env(endpoint: string, bucket: string, prefix: string, credentials: { accessKeyId: string; secretAccessKey: string }): Record<string, string> {
  return {
    STORAGE_URL: `s3://${bucket}${prefix ? `/${prefix}` : ''}`,
    S3_ENDPOINT: endpoint,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: credentials.accessKeyId,
    S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  };
}

async function externalBucket(endpoint: string, bucket: string): Promise<S3TestServer> {
  const credentials = { accessKeyId: process.env.TEST_S3_ACCESS_KEY_ID ?? 'minioadmin', secretAccessKey: process.env.TEST_S3_SECRET_ACCESS_KEY ?? 'minioadmin' };
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  const unsupported = () => Promise.reject(new Error('an external S3 server cannot be stopped by the tests'));
  return {
    endpoint,
    bucket,
    client,
    env: (prefix = '') => s3Env(endpoint, bucket, prefix, credentials),
    stop: unsupported,
    start: unsupported,
    async close() {
      for (;;) {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
        const Objects = (page.Contents ?? []).flatMap((item) => (item.Key ? [{ Key: item.Key }] : []));
        if (Objects.length === 0) break;
        await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects } }));
      }
      await client.send(new DeleteBucketCommand({ Bucket: bucket }));
      client.destroy();
    },
  };
}
