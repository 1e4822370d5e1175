import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, TEST_DB, startTestServer, staffClient, type TestServer } from '../../test/harness';
import { insertSchoolAndAlbum } from '../photos/photos.test-helpers';
import { readStorageReferences } from './backup.repository';
import { embeddedEnv, orderFor, parentOf, runCli, setUpShop, startLive, uploadForm, type LiveServer, type LiveShop } from '../../test/live-shop';
import { waitUntil } from '../../test/shop';
import { backupDataFolder, type Manifest } from './backup.service';

const CLIENTS = 20;
/** Of the 20 clients, these upload batches; the others place orders. */
const UPLOADERS = 4;

/**
 * `npm run backup` while 20 clients place orders and upload, then `npm run restore` into a new data
 * folder and a server on it (docs/operations.md, "Backup and restore"). The embedded default only:
 * on MySQL the database is backed up with mysqldump, which this command says it does not cover.
 */
const suite = TEST_DB === 'sqlite' ? describe : describe.skip;
suite('backup and restore of the embedded default, online', () => {
  let root: string;
  let live: LiveServer | undefined;
  let restored: LiveServer | undefined;
  let shop: LiveShop;

  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'photos-backup-'));
  });
  afterAll(async () => {
    await live?.stop();
    await restored?.stop();
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  it('a backup taken under load restores to a server with every acknowledged order, every photo servable and a sound database', async () => {
    const dataDir = path.join(root, 'live');
    // No JWT_SECRET: the generated one in the data folder is backed up, so tokens still work after the restore.
    // The parents below order as fast as they can from one address: the load, not the per-client
    // order limit (docs/access.md, "Placing orders"), is what this backup is tested under.
    live = await startLive({ ...embeddedEnv(dataDir), ORDER_LIMIT_PER_CLIENT: '100000' });
    shop = await setUpShop(live.url);
    const first = await shop.staff.post('/api/photos/upload-batch', await uploadForm(shop.albumId, 4));
    expect(first.status).toBe(201);
    const firstIds = (first.body.photos as { id: number }[]).map((photo) => photo.id);
    const doomed = await shop.staff.post('/api/photos/upload-batch', await uploadForm(shop.albumId, 6));
    const doomedIds = (doomed.body.photos as { id: number }[]).map((photo) => photo.id);

    // 20 clients at once: parents ordering, staff uploading, each noting what the server acknowledged and when.
    const orders: { id: string; at: number }[] = [];
    const photos: { id: number; at: number }[] = [];
    let running = true;
    const errors: string[] = [];
    const parents = await Promise.all(Array.from({ length: CLIENTS - UPLOADERS }, () => parentOf(live!.url, shop)));
    const clients = [
      ...parents.map(async (parent, i) => {
        while (running) {
          const res = await parent.post('/api/orders', orderFor(shop, [firstIds[i % firstIds.length]!]));
          if (res.status === 201) orders.push({ id: res.body.order.id as string, at: Date.now() });
          else errors.push(`order ${res.status} ${JSON.stringify(res.body)}`);
        }
      }),
      ...Array.from({ length: UPLOADERS }, async () => {
        const uploader = new Client(live!.url, shop.staff.token);
        while (running) {
          const res = await uploader.post('/api/photos/upload-batch', await uploadForm(shop.albumId, 2, 320));
          const at = Date.now();
          if (res.status === 201) for (const photo of res.body.photos as { id: number }[]) photos.push({ id: photo.id, at });
          else errors.push(`upload ${res.status} ${JSON.stringify(res.body)}`);
        }
      }),
    ];
    // Under way before the backup begins: orders and at least one upload batch acknowledged.
    await waitUntil(async () => orders.length >= 20 && photos.length >= 2, 20_000);

    const backupDir = path.join(root, 'backup');
    const began = Date.now();
    const ackedBefore = orders.filter((order) => order.at <= began).map((order) => order.id);
    const photosBefore = photos.filter((photo) => photo.at <= began).map((photo) => photo.id);
    const running$ = runCli('api/src/ops/backup-cli.ts', [backupDir], embeddedEnv(dataDir));
    // Photos deleted while the backup starts and runs: the rows of some are in its copy, so their files must be too.
    const deleter = (async () => {
      for (const id of doomedIds) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        const res = await shop.staff.request('DELETE', '/api/photos/bulk-delete', { photoIds: [id] });
        if (res.status !== 200) errors.push(`delete ${res.status}`);
      }
    })();
    const backup = await running$;
    const ordersDuring = orders.length;
    running = false;
    await Promise.all([...clients, deleter]);
    expect(backup.output).toMatch(/database: \d+ pages, [\d.]+ MB, integrity ok/);
    expect(backup.code, backup.output).toBe(0);
    expect(errors).toEqual([]);
    // The load was real: orders and uploads kept being acknowledged before and during the backup.
    expect(ackedBefore.length).toBeGreaterThan(10);
    expect(photosBefore.length).toBeGreaterThan(0);
    expect(ordersDuring).toBeGreaterThan(ackedBefore.length);

    const manifest = JSON.parse(await fs.readFile(path.join(backupDir, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.notCovered).toEqual([]);
    expect(manifest.missingBeforeBackup).toEqual([]);
    expect(manifest.files.map((file) => file.path)).toEqual(['jwt-secret']);
    expect(manifest.objects.every((object) => /^[a-f0-9]{64}$/.test(object.sha256) && object.size > 0)).toBe(true);
    // Nothing of the backup's hold is left in the live store once it is done. The scratch folder
    // also holds the uploads' own temp files, which the server removes just after answering, so
    // it is read until those are gone (a leftover of the hold would never go).
    const scratchFiles = async () =>
      (await fs.readdir(path.join(dataDir, 'storage', 'tmp'), { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => path.relative(path.join(dataDir, 'storage', 'tmp'), path.join(entry.parentPath, entry.name)));
    await waitUntil(async () => (await scratchFiles()).length === 0, 5_000).catch(() => undefined);
    expect(await scratchFiles()).toEqual([]);

    // The live folder is refused as a restore target: it is not empty.
    const refused = await runCli('api/src/ops/restore-cli.ts', [backupDir], embeddedEnv(dataDir));
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('Refusing to restore: the data folder is not empty');
    expect((await live.stop()).code).toBe(0);
    live = undefined;

    // Restore into a new folder and start a server there.
    const newDir = path.join(root, 'restored');
    const restore = await runCli('api/src/ops/restore-cli.ts', [backupDir], embeddedEnv(newDir));
    expect(restore.code, restore.output).toBe(0);
    const db = new Database(path.join(newDir, 'app.sqlite'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
    restored = await startLive(embeddedEnv(newDir));
    const staff = new Client(restored.url, shop.staff.token);
    // The staff token of before still signs in: the secret came back with the data.
    const listed = await staff.get('/api/orders');
    expect(listed.status).toBe(200);
    const restoredOrders = new Set((listed.body as { id: string }[]).map((order) => order.id));
    const lost = ackedBefore.filter((id) => !restoredOrders.has(id));
    expect(lost).toEqual([]);

    // Every photo of the restored database is servable: thumbnail and watermarked preview, and the original is there.
    const parent = await parentOf(restored.url, shop);
    const album = await parent.get(`/api/albums/${shop.albumId}/photos`);
    expect(album.status).toBe(200);
    const ids = (album.body as { id: number }[]).map((photo) => photo.id);
    for (const id of [...firstIds, ...photosBefore]) expect(ids).toContain(id);
    for (const id of ids) {
      expect((await parent.get(`/api/images/${id}/thumbnail`)).status, `thumbnail of ${id}`).toBe(200);
      expect((await parent.get(`/api/images/${id}/watermarked`)).status, `preview of ${id}`).toBe(200);
    }
    expect((await staff.get('/api/photos/missing')).body.missingPhotos).toEqual([]);

    // A damaged backup is refused and leaves the target as empty as it found it.
    const object = manifest.objects[0]!;
    await fs.appendFile(path.join(backupDir, 'storage', ...object.path.split('/')), 'x');
    const damagedDir = path.join(root, 'damaged');
    const damaged = await runCli('api/src/ops/restore-cli.ts', [backupDir], embeddedEnv(damagedDir));
    expect(damaged.code).toBe(1);
    expect(damaged.output).toContain(`${object.path} does not match the manifest`);
    const left = await fs.readdir(damagedDir, { recursive: true, withFileTypes: true }).catch(() => []);
    expect(left.filter((entry) => entry.isFile())).toEqual([]);
  }, 120_000);

  it('says what it does not cover on MySQL and a bucket, and refuses a folder that is not a finished backup', async () => {
    const none = await runCli('api/src/ops/backup-cli.ts', [path.join(root, 'nothing')], {
      DATABASE_URL: 'mysql://photos@127.0.0.1:3306/photos',
      STORAGE_URL: 's3://photos-bucket',
    });
    expect(none.code).toBe(1);
    expect(none.output).toContain('mysqldump --single-transaction');
    expect(none.output).toContain('mc mirror');
    const empty = path.join(root, 'half');
    await fs.mkdir(empty, { recursive: true });
    const half = await runCli('api/src/ops/restore-cli.ts', [empty], embeddedEnv(path.join(root, 'x')));
    expect(half.code).toBe(1);
    expect(half.output).toContain('has no manifest.json');
  }, 30_000);
});

/**
 * The hold, step by step: photos deleted after the database was copied but before storage is
 * copied are in the backup (their rows are in its database), and gone from the live store after it.
 */
suite('a backup holds removals while it copies', () => {
  let server: TestServer;
  let root: string;
  beforeAll(async () => {
    server = await startTestServer();
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'photos-hold-'));
  });
  afterAll(async () => {
    await server?.close();
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  it('copies the files of photos deleted between the database copy and the storage copy', async () => {
    const staff = await staffClient(server);
    const { albumId } = await insertSchoolAndAlbum(server);
    const uploaded = await staff.post('/api/photos/upload-batch', await uploadForm(albumId, 3));
    expect(uploaded.status).toBe(201);
    const ids = (uploaded.body.photos as { id: number }[]).map((photo) => photo.id);
    const settings = { databaseUrl: server.config.databaseUrl, storage: server.config.storage, dataDir: server.config.dataDir, jwtSecretFromEnv: true, backupKey: null };
    const folder = path.join(root, 'backup');
    const { manifest } = await backupDataFolder(settings, folder, async (line) => {
      if (!line.startsWith('database:')) return;
      const deleted = await staff.request('DELETE', '/api/photos/bulk-delete', { photoIds: ids });
      expect(deleted.status).toBe(200);
    });
    expect(manifest.missingBeforeBackup).toEqual([]);
    const keys = (await readStorageReferences(path.join(folder, 'database.sqlite'))).photos.map((photo) => photo.storageKey);
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(manifest.objects.filter((object) => object.path.includes(key))).toHaveLength(4);
    // After the backup the removals took effect: nothing of them is left in the live store.
    const live = await fs.readdir(server.storageDir, { recursive: true });
    for (const key of keys) expect(live.filter((name) => name.includes(key))).toEqual([]);
  });
});
