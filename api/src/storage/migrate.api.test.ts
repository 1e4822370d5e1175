import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeS3 } from '../../test/harness';
import { startS3Server, type S3TestServer } from '../../test/s3';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** `npm run storage:migrate` as an operator runs it, with the target's settings in the environment. */
function migrate(env: Record<string, string>, args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/src/storage/migrate-cli.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describeS3('npm run storage:migrate', () => {
  let s3: S3TestServer;
  let dir: string;
  let folder: string;
  const files: Record<string, Buffer> = {
    'originals/ab/cd/abcd0001.jpg': randomBytes(9 * 1024 * 1024),
    'thumbnails/ab/cd/abcd0001.webp': randomBytes(30_000),
    'small-thumbnails/ab/cd/abcd0001.webp': randomBytes(20_000),
    'previews/ab/cd/abcd0001.webp': randomBytes(200_000),
    'examples/ef01ef01ef01ef01.webp': randomBytes(5_000),
  };

  beforeAll(async () => {
    s3 = await startS3Server();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'storage-migrate-'));
    folder = path.join(dir, 'storage');
    for (const [key, bytes] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(folder, key)), { recursive: true });
      await fs.writeFile(path.join(folder, key), bytes);
    }
    // Neither an upload in flight nor a half-written rendition is a stored object.
    await fs.mkdir(path.join(folder, 'tmp'), { recursive: true });
    await fs.writeFile(path.join(folder, 'tmp', 'upload-1234'), 'partial upload');
    await fs.writeFile(path.join(folder, 'previews/ab/cd/abcd0001.webp.0a1b2c.part'), 'half');
  });
  afterAll(async () => {
    await s3?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  const bucketObjects = async () => {
    const page = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
    return (page.Contents ?? []).map((item) => item.Key ?? '').sort();
  };
  const read = async (key: string) => Buffer.from(await (await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }))).Body!.transformToByteArray());

  it('copies every object of the folder into the bucket and verifies each, then is safe to repeat', async () => {
    const env = { ...s3.env('photos'), DATA_DIR: dir, STORAGE_DIR: folder };
    const first = await migrate(env, []);
    expect(first.output).toContain(`5 objects`);
    expect(first.output).toContain('5 copied and verified, 0 already there and verified, 0 failed');
    expect(first.code).toBe(0);
    expect(await bucketObjects()).toEqual(Object.keys(files).map((key) => `photos/${key}`).sort());
    for (const [key, bytes] of Object.entries(files)) expect((await read(`photos/${key}`)).equals(bytes)).toBe(true);

    const again = await migrate(env, []);
    expect(again.code).toBe(0);
    expect(again.output).toContain('0 copied and verified, 5 already there and verified, 0 failed');

    // An object that differs in the bucket (same size, other bytes) is found and copied again.
    const thumb = 'thumbnails/ab/cd/abcd0001.webp';
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: `photos/${thumb}`, Body: randomBytes(files[thumb]!.length) }));
    const dry = await migrate(env, ['--dry-run']);
    expect(dry.code).toBe(1);
    expect(dry.output).toContain(`FAILED ${thumb}: differs in the target`);
    const repaired = await migrate(env, []);
    expect(repaired.code).toBe(0);
    expect(repaired.output).toContain('1 copied and verified, 4 already there and verified, 0 failed');
    expect((await read(`photos/${thumb}`)).equals(files[thumb]!)).toBe(true);
  });

  it('takes another folder with --from and refuses a target that is the folder itself', async () => {
    const other = await migrate({ ...s3.env('elsewhere'), DATA_DIR: dir }, ['--from', folder]);
    expect(other.code).toBe(0);
    expect(other.output).toContain('5 copied and verified');
    const itself = await migrate({ STORAGE_URL: 'file:', STORAGE_DIR: folder, DATA_DIR: dir }, []);
    expect(itself.code).toBe(2);
    expect(itself.output).toContain('names the folder');
  });
});
