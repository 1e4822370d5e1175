import http from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { Client, describeApi } from '../../test/harness';
import { freshDatabase, type FreshDatabase } from '../../test/processes';
import { orderFor, parentOf, setUpShop, startLive, uploadForm, type LiveServer, type LiveShop } from '../../test/live-shop';
import { createKnex, databaseTarget } from '../db/knex';

const GRACE_MS = 6000;

interface Sent {
  /** Sends the rest of the body. */
  finish(): void;
  answer: Promise<{ status: number; body: string }>;
}

/** A POST whose body goes out in two parts: half now, the rest when the test says. */
function sendInTwo(url: string, headers: Record<string, string>, body: Buffer): Sent {
  const req = http.request(url, { method: 'POST', headers: { ...headers, 'Content-Length': String(body.length) }, agent: false });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.once('error', reject);
  });
  req.write(body.subarray(0, Math.floor(body.length / 2)));
  return { finish: () => req.end(body.subarray(Math.floor(body.length / 2))), answer };
}

async function multipart(form: FormData): Promise<{ body: Buffer; type: string }> {
  const res = new Response(form);
  return { body: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type')! };
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/**
 * SIGTERM during an upload batch and a checkout (docs/operations.md, "Stopping cleanly"): both
 * finish, a new connection is refused, an upload that would outlast the grace is cut with nothing
 * of it stored, and the process exits 0 well within 30 s with nothing half-written.
 */
describeApi('stopping cleanly on SIGTERM', () => {
  let fresh: FreshDatabase;
  let live: LiveServer | undefined;
  let knex: Knex;

  beforeAll(async () => {
    fresh = await freshDatabase('photos-stop-');
    knex = createKnex(databaseTarget(fresh.databaseUrl));
  });
  afterAll(async () => {
    await live?.stop();
    await knex?.destroy();
    await fresh?.drop();
  });

  const env = () => ({
    DATABASE_URL: fresh.databaseUrl,
    DATA_DIR: fresh.dir,
    STORAGE_DIR: path.join(fresh.dir, 'storage'),
    JWT_SECRET: 'a-secret-of-at-least-32-bytes-for-the-stop-test',
    SHUTDOWN_GRACE_MS: String(GRACE_MS),
  });

  it('finishes the upload and the checkout under way, cuts what outlasts the grace, exits 0 with nothing half-written', async () => {
    live = await startLive(env());
    const shop: LiveShop = await setUpShop(live.url);
    const first = await shop.staff.post('/api/photos/upload-batch', await uploadForm(shop.albumId, 1));
    expect(first.status).toBe(201);
    const photoId = first.body.photos[0].id as number;
    // The parent's browser: the gallery cookie its unlock set.
    const unlocked = await fetch(`${live.url}/api/schools/${shop.slug}/verify`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ password: shop.password }) });
    expect(unlocked.status).toBe(200);
    const cookie = unlocked.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');

    const auth = { Authorization: `Bearer ${shop.staff.token}` };
    const batch = await multipart(await uploadForm(shop.albumId, 3, 900));
    const stalled = await multipart(await uploadForm(shop.albumId, 2, 900));
    const order = Buffer.from(JSON.stringify(orderFor(shop, [photoId])));
    const upload = sendInTwo(`${live.url}/api/photos/upload-batch`, { ...auth, 'Content-Type': batch.type }, batch.body);
    const checkout = sendInTwo(`${live.url}/api/orders`, { Cookie: cookie, 'Content-Type': 'application/json' }, order);
    const cut = sendInTwo(`${live.url}/api/photos/upload-batch`, { ...auth, 'Content-Type': stalled.type }, stalled.body);
    // Let the three requests reach the server, then stop it.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const exitStarted = Date.now();
    live.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 400));

    // Stopping: a new connection is not taken…
    await expect(fetch(`${live.url}/api/health`)).rejects.toThrow();
    // …while the requests under way finish.
    upload.finish();
    checkout.finish();
    const [uploaded, placed] = await Promise.all([upload.answer, checkout.answer]);
    expect(uploaded.status, uploaded.body).toBe(201);
    expect(JSON.parse(uploaded.body).uploaded).toBe(3);
    expect(placed.status, placed.body).toBe(201);
    const orderId = JSON.parse(placed.body).order.id as string;
    // The stalled upload never finishes its body: cut at the end of the grace, not answered.
    await expect(cut.answer).rejects.toThrow();

    const { code } = await live.exited;
    const tookMs = Date.now() - exitStarted;
    expect(code, live.output()).toBe(0);
    expect(tookMs).toBeGreaterThanOrEqual(GRACE_MS - 1000);
    expect(tookMs).toBeLessThan(30_000);
    expect(live.output()).toContain('requests still under way at the end of the grace');
    expect(live.output()).toMatch(/"msg":"stopped"/);
    live = undefined;

    // Nothing half-written: every photo row has its four files, the cut batch left neither rows nor
    // files nor temporary files, and no e-mail is left claimed.
    const photos = (await knex('photos').where({ album_id: shop.albumId }).select('storage_key')) as { storage_key: string }[];
    expect(photos).toHaveLength(4);
    const files = await filesUnder(path.join(fresh.dir, 'storage'));
    expect(files.filter((file) => !file.startsWith('examples/'))).toHaveLength(4 * 4);
    for (const { storage_key: key } of photos) expect(files.filter((file) => file.includes(key))).toHaveLength(4);
    expect(files.filter((file) => file.startsWith('tmp/') || file.endsWith('.part'))).toEqual([]);
    expect(await knex('outbox_messages').where({ status: 'sending' }).count({ n: '*' }).first()).toMatchObject({ n: 0 });
    expect(await knex('orders').where({ id: orderId }).first('id')).toBeTruthy();

    // Started again on the same data, the order and the photos are there and servable.
    live = await startLive(env());
    const staff = new Client(live.url, shop.staff.token);
    expect((await staff.get(`/api/orders/${orderId}`)).status).toBe(200);
    const again = await parentOf(live.url, shop);
    const listed = await again.get(`/api/albums/${shop.albumId}/photos`);
    expect(listed.body).toHaveLength(4);
    for (const photo of listed.body as { id: number }[]) expect((await again.get(`/api/images/${photo.id}/thumbnail`)).status).toBe(200);
  }, 90_000);
});
