import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../contract/messages';
import { thebeToDecimal } from '../contract/money';
import { FALLBACK_PRODUCTS } from '../contract/constants';
import { Client, MYSQL_SERVER_URL, TEST_DB, TEST_REDIS_URL, describeRedis, describeS3, freePort } from '../test/harness';
import { startS3Server, type S3TestServer } from '../test/s3';
import { startMailCatcher, type MailCatcher } from '../test/mail-catcher';
import { startFrontProxy, type FrontProxy } from '../test/front-proxy';
import { solidJpeg } from '../test/images';
import { postForm, waitUntil } from '../test/shop';
import { photoForm } from './photos/photos.test-helpers';
import { schoolInput } from './schools/schools.test-helpers';
import { createKnex, createMysqlDatabase, databaseTarget, dropMysqlDatabase } from './db/knex';
import { objectKey } from './media/storage';
import type { Knex } from 'knex';

const ROOT = path.resolve(import.meta.dirname, '../..');
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

interface Process {
  name: 'A' | 'B';
  url: string;
  dataDir: string;
  child: ChildProcess;
  output: () => string;
}

/** One API process exactly as `npm start` runs it (without the PWA build step). */
async function startProcess(name: 'A' | 'B', env: Record<string, string>, root: string): Promise<Process> {
  const port = await freePort();
  const dataDir = path.join(root, `process-${name}`);
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/src/server.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...env,
      PORT: String(port),
      DATA_DIR: dataDir,
      // Never used with a bucket: shows that nothing of a photo lands on a process's own disk.
      STORAGE_DIR: path.join(dataDir, 'storage'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { name, url: `http://127.0.0.1:${port}`, dataDir, child, output: () => output };
}

async function waitHealthy(p: Process): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (p.child.exitCode !== null) throw new Error(`process ${p.name} exited:\n${p.output()}`);
    try {
      const res = await fetch(`${p.url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`process ${p.name} did not become healthy:\n${p.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function stopProcess(p: Process | undefined): Promise<void> {
  if (!p || p.child.exitCode !== null) return;
  const exited = new Promise((resolve) => p.child.once('exit', resolve));
  p.child.kill('SIGTERM');
  await exited;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

function hiddenInputs(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([A-Z_]+)" value="([^"]*)"/g)) fields[match[1]!] = match[2]!.replace(/&amp;/g, '&');
  return fields;
}

/**
 * Two API processes on one MariaDB database, one S3 bucket and one Redis behave as one product:
 * a whole journey alternates between them, with a front proxy standing in for the load balancer.
 */
const suite = TEST_DB === 'mysql' ? describeS3 : describe.skip;
suite('two API processes, one product', () => {
  describeRedis('on MariaDB, an S3 bucket and Redis', () => {
    let root: string;
    let dbName: string;
    let s3: S3TestServer;
    let mail: MailCatcher;
    let front: FrontProxy;
    let a: Process;
    let b: Process;
    /** The test's own look at the shared database (storage keys, ETags). */
    let knex: Knex;
    const prefix = `journey-${randomBytes(3).toString('hex')}`;

    beforeAll(async () => {
      root = await fs.mkdtemp(path.join(os.tmpdir(), 'two-processes-'));
      dbName = `t_${randomBytes(6).toString('hex')}`;
      await createMysqlDatabase(MYSQL_SERVER_URL, dbName);
      const databaseUrl = new URL(MYSQL_SERVER_URL);
      databaseUrl.pathname = `/${dbName}`;
      knex = createKnex(databaseTarget(databaseUrl.toString()));
      s3 = await startS3Server();
      mail = await startMailCatcher();
      const upstream = { A: '', B: '' };
      // The payment gateway's notify reaches B; everything else addressed to the public URL
      // (the sandbox's pages, the browser's return) reaches A. Tests also call each process directly.
      front = await startFrontProxy((req) => {
        const to = req.url?.startsWith('/api/payment/notify') ? 'B' : 'A';
        return { name: to, url: upstream[to] };
      });
      const env = {
        // Not production: these processes take payments on the built-in sandbox and register the
        // first staff account, both of which production refuses (docs/accounts.md, "Production defaults").
        NODE_ENV: 'test',
        PUBLIC_URL: front.url,
        DATABASE_URL: databaseUrl.toString(),
        REDIS_URL: TEST_REDIS_URL,
        ...s3.env(prefix),
        JWT_SECRET: randomBytes(32).toString('base64url'),
        SMTP_URL: mail.url,
        SEED_DEMO: 'false',
        // Info: the scheduled publication says which process published a class.
        LOG_LEVEL: 'info',
        BUSINESS_NAME: 'Two Process Studio',
        PUBLISH_CHECK_INTERVAL_MS: '200',
        // The browser's return reaches A before the gateway's notify reaches B: both settle the payment.
        SANDBOX_NOTIFY_DELAY_MS: '400',
      };
      // Started together on the empty database: one migrates, the other waits for it.
      [a, b] = await Promise.all([startProcess('A', env, root), startProcess('B', env, root)]);
      upstream.A = a.url;
      upstream.B = b.url;
      await Promise.all([waitHealthy(a), waitHealthy(b)]);
    }, 180_000);

    afterAll(async () => {
      await Promise.all([stopProcess(a), stopProcess(b)]);
      await knex?.destroy();
      await front?.close();
      await mail?.close();
      await s3?.close();
      if (dbName) await dropMysqlDatabase(MYSQL_SERVER_URL, dbName);
      if (root) await fs.rm(root, { recursive: true, force: true });
    });

    const objects = async () => {
      const page = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${prefix}/` }));
      return (page.Contents ?? []).map((item) => (item.Key ?? '').slice(prefix.length + 1)).sort();
    };
    const objectBytes = async (key: string) =>
      Buffer.from(await (await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: `${prefix}/${key}` }))).Body!.transformToByteArray());

    it('upload at A, view at B, order at A, pay with notify at B and return at A, download at B, limits shared, restore at B', async () => {
      // Both processes report the shared database, bucket and Redis.
      for (const p of [a, b]) {
        const health = await new Client(p.url).get('/api/health');
        expect(health.body).toEqual({ status: 'ok', database: 'ok', storage: 'ok', redis: 'ok' });
      }

      // Staff: the first account is registered at A; its token works at B too (one JWT secret).
      const registered = await new Client(a.url).post('/api/auth/register', {
        email: 'owner@studio.example',
        password: 'studio-password',
        firstName: 'Studio',
        lastName: 'Owner',
      });
      expect(registered.status).toBe(201);
      const staffA = new Client(a.url, registered.body.token);
      const staffB = new Client(b.url, registered.body.token);
      expect((await staffB.get('/api/auth/me')).status).toBe(200);
      const schoolBody = schoolInput({ closingDate: new Date(Date.now() + 30 * 24 * 3600_000).toISOString().slice(0, 10) });
      const school = (await staffA.post('/api/schools', schoolBody)).body as { id: number; slug: string };
      const album = await staffB.post('/api/albums', { name: 'Class 3C', schoolId: school.id });
      expect(album.status).toBe(201);
      const albumId = album.body.id as number;

      // 1. A batch uploaded through A lands in the bucket, whole: original and three renditions each.
      const originals = await Promise.all(
        ['IMG_0101.JPG', 'IMG_0102.JPG', 'IMG_0103.JPG'].map(async (name, i) => ({ name, bytes: await solidJpeg(1600 + i * 8, 1200, ['#335577', '#775533', '#557733'][i]) })),
      );
      const uploaded = await staffA.post('/api/photos/upload-batch', photoForm(originals, { albumId: String(albumId) }));
      expect(uploaded.status).toBe(201);
      expect(uploaded.body.uploaded).toBe(3);
      const keys = await objects();
      expect(keys.filter((key) => key.startsWith('originals/'))).toHaveLength(3);
      for (const folder of ['thumbnails/', 'small-thumbnails/', 'previews/']) expect(keys.filter((key) => key.startsWith(folder))).toHaveLength(3);
      // Nothing of it stayed on either process's disk (the upload's temp files are gone too).
      expect([...(await filesUnder(a.dataDir)), ...(await filesUnder(b.dataDir))]).toEqual([]);

      // 2. A parent unlocks the school at B and views there; the answers come from the bucket.
      const parentB = new Client(b.url);
      expect((await parentB.post(`/api/schools/${school.slug}/verify`, { password: schoolBody.password })).status).toBe(200);
      const listed = await parentB.get(`/api/albums/${albumId}/photos`);
      expect(listed.status).toBe(200);
      // A family gets the frame number, not the camera's file name (issue 22 point 8).
      const photos = (listed.body as { id: number; originalNumber: string }[]).map((photo) => ({ ...photo, originalName: `IMG_${photo.originalNumber}.JPG` }));
      expect(photos.map((photo) => photo.originalNumber)).toEqual(['0101', '0102', '0103']);
      const first = photos[0]!;
      const thumb = await parentB.get(`/api/images/${first.id}/thumbnail`);
      expect(thumb.status).toBe(200);
      expect(thumb.headers.get('content-type')).toBe('image/webp');
      const etag = thumb.headers.get('etag')!;
      expect((thumb.body as Buffer).subarray(8, 12).toString()).toBe('WEBP');
      expect((await parentB.get(`/api/images/${first.id}/thumbnail`, { 'If-None-Match': etag })).status).toBe(304);
      expect((await parentB.get(`/api/images/${first.id}/watermarked`)).status).toBe(200);
      // The same access checks: no grant, no photo, at either process.
      for (const p of [a, b]) expect((await new Client(p.url).get(`/api/images/${first.id}/thumbnail`)).status).toBe(404);

      // 3. The same browser orders through A with the grant B gave it (one secret signs every cookie).
      const parentA = parentB.via(a.url);
      const digital = FALLBACK_PRODUCTS.find((product) => product.id === 'digital')!;
      const customerEmail = `parent-${randomBytes(3).toString('hex')}@example.test`;
      const items = [first, photos[1]!].map((photo) => ({
        photoId: photo.id,
        albumId,
        productType: digital.id,
        productName: digital.name,
        productDescription: 'No description available',
        quantity: 1,
        unitPrice: thebeToDecimal(digital.priceThebe),
        totalPrice: thebeToDecimal(digital.priceThebe),
      }));
      const order = await parentA.post('/api/orders', {
        schoolId: school.id,
        customerName: 'Neo Kgosi',
        customerEmail,
        customerPhone: '+267 72 000 000',
        studentName: 'Lorato Kgosi',
        totalAmount: thebeToDecimal(digital.priceThebe * 2),
        items,
        notes: '',
      });
      expect(order.status).toBe(201);
      const orderId = order.body.order.id as string;

      // 4. Pay through the sandbox: the hosted page and the return go to A, the notify to B.
      const initiated = await parentA.post('/api/payment/initiate', { orderId });
      expect(initiated.body.success).toBe(true);
      expect(initiated.body.processUrl).toBe(`${front.url}/payweb3/process.trans`);
      const page = await (await postForm(initiated.body.processUrl, { PAY_REQUEST_ID: initiated.body.payRequestId, CHECKSUM: initiated.body.checksum })).text();
      const fields = hiddenInputs(page);
      const paid = await postForm(`${front.url}/payweb3/pay.trans`, { ...fields, CARD_NUMBER: '4000000000000002', EXPIRY: '12/35', CVV: '123', ACTION: 'pay' });
      const returnPage = await paid.text();
      const action = /<form method="post" action="([^"]+)"/.exec(returnPage)![1]!.replace(/&amp;/g, '&');
      expect(action.startsWith(`${front.url}/api/payment/return`)).toBe(true);
      const back = await postForm(action, hiddenInputs(returnPage));
      expect(back.status).toBe(303);
      // TRANSACTION_STATUS=1: approved, as A read it from the gateway.
      expect(back.headers.get('location')).toContain('TRANSACTION_STATUS=1');

      // The late notify arrives at B and finds the order already paid by A's return.
      const deadline = Date.now() + 10_000;
      while (!front.routed.some((r) => r.path.startsWith('/api/payment/notify'))) {
        if (Date.now() > deadline) throw new Error('no notify reached the front proxy');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(front.routed.filter((r) => r.path.startsWith('/api/payment/notify')).every((r) => r.to === 'B')).toBe(true);
      expect(front.routed.filter((r) => r.path.startsWith('/api/payment/return')).map((r) => r.to)).toEqual(['A']);
      const status = await parentB.get(`/api/orders/${orderId}`);
      expect(status.body).toMatchObject({ paymentStatus: 'completed', orderStatus: 'paid' });

      // 5. One confirmation e-mail, whichever process settled first.
      const confirmations = () => mail.messages.filter((m) => m.to.includes(customerEmail) && m.subject.includes(orderId));
      await waitUntil(async () => confirmations().length > 0, 10_000);
      // Both processes have settled the payment by now (A on the return, B on the notify).
      await waitUntil(async () => (await knex('payment_callbacks').where({ kind: 'notify' })).length > 0, 10_000);
      await mail.noMoreThan(1, { to: customerEmail, match: (m) => m.subject.includes(orderId), within: 1000 });
      expect(confirmations()).toHaveLength(1);
      const confirmation = confirmations()[0]!;

      // 6. The download link (built on the public URL) is served by B, byte for byte from the bucket.
      const links = [...confirmation.text.matchAll(/https?:\/\/\S+\/api\/downloads\/[A-Za-z0-9._-]+/g)].map((m) => m[0]);
      expect(links).toHaveLength(2);
      const download = await fetch(`${b.url}${new URL(links[0]!).pathname}`);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-disposition')).toMatch(/^attachment;/);
      const downloaded = Buffer.from(await download.arrayBuffer());
      const expected = originals.find((o) => o.name === first.originalName)!.bytes;
      expect(sha256(downloaded)).toBe(sha256(expected));

      // 7. Rate limits are counted across both: the ten free wrong passwords at A and B, and an
      //    eleventh makes this address wait (issue 22 point 7: a short wait, no longer a block), so
      //    even the right one is told to wait at either.
      const other = (await staffA.post('/api/schools', schoolInput())).body as { slug: string };
      for (const p of [a, b, a, b, a, b, a, b, a, b, a]) {
        const res = await new Client(p.url).post(`/api/schools/${other.slug}/verify`, { password: 'not-the-password' });
        expect(res.status).toBe(401);
      }
      for (const p of [a, b]) {
        const refused = await new Client(p.url).post(`/api/schools/${other.slug}/verify`, { password: schoolBody.password });
        expect(refused.status).toBe(429);
        expect(refused.body.message).toBe(MSG.tooManyAttempts);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      }

      // 8. An original deleted from the bucket is reported and restored through B.
      const third = photos[2]!;
      expect((await staffB.get('/api/photos/missing')).body.missingPhotos).toEqual([]);
      const row = await knex('photos').where({ id: third.id }).first('storage_key', 'mime_type', 'thumb_etag');
      const thirdKey = objectKey('originals', row.storage_key, 'jpg');
      await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: `${prefix}/${thirdKey}` }));
      const missing = await staffB.get('/api/photos/missing');
      expect(missing.body.missingPhotos.map((p: { id: number }) => p.id)).toEqual([third.id]);
      const replacement = await solidJpeg(1640, 1230, '#995511');
      const restored = await staffB.post('/api/photos/restore', photoForm([{ name: 'IMG_0103.JPG', bytes: replacement }], { albumId: String(albumId) }));
      expect(restored.status).toBe(200);
      expect(restored.body.results).toEqual([{ filename: 'IMG_0103.JPG', success: true, message: MSG.restoredPhoto }]);
      expect(sha256(await objectBytes(thirdKey))).toBe(sha256(replacement));
      expect((await staffA.get('/api/photos/missing')).body.missingPhotos).toEqual([]);
      // A serves the new thumbnail at once: no process keeps a copy of its own.
      const after = await knex('photos').where({ id: third.id }).first('thumb_etag');
      expect(after.thumb_etag).not.toBe(row.thumb_etag);
      const fresh = await parentA.get(`/api/images/${third.id}/thumbnail`);
      expect(fresh.status).toBe(200);
      expect(fresh.headers.get('etag')).toBe(`"${after.thumb_etag}"`);
    });

    it('a class scheduled to publish is published once, by one of the two processes, at its time', async () => {
      const login = await new Client(a.url).post('/api/auth/login', { email: 'owner@studio.example', password: 'studio-password' });
      expect(login.status).toBe(200);
      const staffA = new Client(a.url, login.body.token);
      const school = (await staffA.post('/api/schools', schoolInput())).body as { id: number; slug: string; password?: string };
      const albumId = (await staffA.post('/api/albums', { name: 'Class 7G', schoolId: school.id })).body.id as number;
      const uploaded = await staffA.post('/api/photos/upload-batch', photoForm([{ name: 'IMG_0901.JPG', bytes: await solidJpeg(800, 600) }], { albumId: String(albumId) }));
      expect(uploaded.status).toBe(201);
      const at = Date.now() + 2000;
      const scheduled = await staffA.patch(`/api/albums/${albumId}`, { status: 'draft', publishAt: new Date(at).toISOString() });
      expect(scheduled.body).toMatchObject({ status: 'draft' });
      const logged = () => [a, b].map((p) => p.output().split('\n').filter((line) => line.includes('scheduled class published') && line.includes(`"albumId":${albumId}`)).length);
      await waitUntil(async () => (await knex('albums').where({ id: albumId }).first('status')).status === 'published', 15_000);
      expect(Date.now()).toBeGreaterThanOrEqual(at);
      // Both processes keep looking a while longer: still exactly one publication.
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(logged().reduce((sum, n) => sum + n, 0)).toBe(1);
      const row = await knex('albums').where({ id: albumId }).first('status', 'publish_at', 'published_at');
      expect(row).toMatchObject({ status: 'published', publish_at: null });
      expect(Number(row.published_at)).toBe(at);
    });

  });
});
