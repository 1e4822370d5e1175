import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeApi, describeS3 } from '../../test/harness';
import { startS3Server, type S3TestServer } from '../../test/s3';
import { createObjectStorage, parseStorageTarget, type ObjectStorage } from './index';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function readAll(storage: ObjectStorage, key: string): Promise<Buffer | null> {
  const object = await storage.open(key);
  if (!object) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of object.stream) chunks.push(chunk as Buffer);
  const data = Buffer.concat(chunks);
  expect(data.length).toBe(object.size);
  return data;
}

async function listed(storage: ObjectStorage, prefix?: string): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for await (const item of storage.list(prefix)) found[item.key] = item.size;
  return found;
}

/** One contract, two stores: the local folder and an S3 bucket behave the same to their callers. */
function storageContract(name: string, make: () => Promise<{ storage: ObjectStorage; dataDir: string }>) {
  describe(name, () => {
    let storage: ObjectStorage;
    let dataDir: string;
    let local: string;
    beforeAll(async () => {
      ({ storage, dataDir } = await make());
      await storage.ensureReady();
      local = path.join(dataDir, 'local');
      await fs.mkdir(local, { recursive: true });
    });
    afterAll(() => storage?.close());

    it('stores, reads back, replaces and removes objects; absent ones are null', async () => {
      await storage.check();
      const first = Buffer.from('first version');
      await storage.putBuffer('thumbnails/ab/cd/abcd1234.webp', first, { contentType: 'image/webp' });
      expect(await readAll(storage, 'thumbnails/ab/cd/abcd1234.webp')).toEqual(first);
      expect(await storage.stat('thumbnails/ab/cd/abcd1234.webp')).toEqual({ size: first.length });

      const second = randomBytes(2048);
      await storage.putBuffer('thumbnails/ab/cd/abcd1234.webp', second, { contentType: 'image/webp' });
      expect(await readAll(storage, 'thumbnails/ab/cd/abcd1234.webp')).toEqual(second);

      expect(await storage.read('thumbnails/ab/cd/abcd1234.webp')).toEqual(second);
      expect(await storage.read('thumbnails/ab/cd/missing.webp')).toBeNull();
      expect(await storage.open('thumbnails/ab/cd/missing.webp')).toBeNull();
      expect(await storage.stat('thumbnails/ab/cd/missing.webp')).toBeNull();
      await storage.remove(['thumbnails/ab/cd/abcd1234.webp', 'thumbnails/ab/cd/missing.webp']);
      expect(await storage.open('thumbnails/ab/cd/abcd1234.webp')).toBeNull();
    });

    it('stores local files, copying or consuming them, and a 12 MB file arrives byte for byte', async () => {
      const small = path.join(local, 'small.jpg');
      await fs.writeFile(small, 'jpeg bytes');
      await storage.putFile('originals/11/22/1122aa.jpg', small, { contentType: 'image/jpeg' });
      expect(await fs.readFile(small, 'utf8')).toBe('jpeg bytes');
      expect((await readAll(storage, 'originals/11/22/1122aa.jpg'))?.toString()).toBe('jpeg bytes');

      // Larger than one multipart part on S3.
      const bytes = randomBytes(12 * 1024 * 1024);
      const big = path.join(storage.scratchDir, 'upload-big');
      await fs.writeFile(big, bytes);
      await storage.putFile('originals/33/44/3344bb.jpg', big, { contentType: 'image/jpeg', move: true });
      await expect(fs.access(big)).rejects.toThrow();
      const back = await readAll(storage, 'originals/33/44/3344bb.jpg');
      expect(back && sha256(back)).toBe(sha256(bytes));
      expect(await storage.stat('originals/33/44/3344bb.jpg')).toEqual({ size: bytes.length });
    });

    it('streams only as fast as it is read', async () => {
      await storage.putBuffer('previews/55/66/5566cc.webp', Buffer.from('preview'), { contentType: 'image/webp' });
      const object = await storage.open('previews/55/66/5566cc.webp');
      expect(object?.size).toBe(7);
      expect(await text(object!.stream)).toBe('preview');
    });

    it('lists what it holds under a prefix, never its scratch files', async () => {
      await fs.writeFile(path.join(storage.scratchDir, 'half-uploaded'), 'x');
      await storage.putBuffer('examples/77aa.webp', Buffer.from('example'), { contentType: 'image/webp' });
      const all = await listed(storage);
      expect(all).toMatchObject({ 'examples/77aa.webp': 7, 'originals/11/22/1122aa.jpg': 10, 'previews/55/66/5566cc.webp': 7 });
      expect(Object.keys(all).some((key) => key.includes('half-uploaded'))).toBe(false);
      expect(await listed(storage, 'examples/')).toEqual({ 'examples/77aa.webp': 7 });
    });

    it('refuses keys that could leave the store', async () => {
      for (const key of ['../outside.jpg', '/etc/passwd', 'originals//x.jpg', 'originals/../../x', 'a b.jpg', '']) {
        await expect(storage.putBuffer(key, Buffer.from('x'), { contentType: 'image/jpeg' })).rejects.toThrow(/Invalid object key/);
        await expect(storage.open(key)).rejects.toThrow(/Invalid object key/);
      }
    });
  });
}

describeApi('object storage', () => {
  storageContract('file: (a local folder)', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'storage-file-'));
    const target = parseStorageTarget({ STORAGE_URL: 'file:', storageDir: path.join(dataDir, 'storage') }, dataDir);
    return { storage: createObjectStorage(target, dataDir), dataDir };
  });

  describeS3('s3:// (a real S3-protocol server)', () => {
    let s3: S3TestServer;
    beforeAll(async () => {
      s3 = await startS3Server();
    });
    afterAll(() => s3?.close());

    storageContract('under a prefix', async () => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'storage-s3-'));
      const env = s3.env('school-photos/live');
      const target = parseStorageTarget({ ...env, S3_FORCE_PATH_STYLE: true, storageDir: path.join(dataDir, 'unused') }, dataDir);
      return { storage: createObjectStorage(target, dataDir), dataDir };
    });

    it('keeps every object under its prefix in the bucket', async () => {
      const page = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
      const keys = (page.Contents ?? []).map((item) => item.Key ?? '');
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.every((key) => key.startsWith('school-photos/live/'))).toBe(true);
    });

    it('says clearly when the bucket is missing or the credentials are wrong', async () => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'storage-s3-'));
      const storageFor = (env: Record<string, string>) =>
        createObjectStorage(parseStorageTarget({ ...s3.env(), ...env, S3_FORCE_PATH_STYLE: true, storageDir: dataDir }, dataDir), dataDir);
      const missing = storageFor({ STORAGE_URL: 's3://no-such-bucket' });
      await expect(missing.ensureReady()).rejects.toThrow(/s3:\/\/no-such-bucket\/.*the bucket does not exist/);
      missing.close();
      // s3rver checks the access key id of version-4 signatures (not the signature itself).
      const wrongKey = storageFor({ S3_ACCESS_KEY_ID: 'NOT-A-KEY' });
      await expect(wrongKey.ensureReady()).rejects.toThrow(/access denied/);
      await expect(wrongKey.check()).rejects.toThrow();
      wrongKey.close();
    });
  });
});
