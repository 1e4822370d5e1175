import fs from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HARDENING_MSG, MSG } from '../../contract/messages';
import { Client, TEST_DB, describeS3, grantCookie, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { htmlFile, solidJpeg } from '../../test/images';
import { startS3Server, type S3TestServer } from '../../test/s3';
import { readZip } from '../../test/zip';
import { createShop, parentFor } from '../../test/shop';
import { insertSchoolAndAlbum, photoForm } from '../photos/photos.test-helpers';
import { addPhoto, distinctJpeg, paidOrder } from '../print-batches/print-batches.test-helpers';
import { createPhotoService } from '../photos/photos.service';
import { objectKey } from '../media/storage';
import { forgetSmallThumbnail } from '../../test/fixtures';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

interface PhotoRow {
  id: number;
  storage_key: string;
  mime_type: string;
  thumb_etag: string;
  preview_etag: string;
  small_thumb_etag: string | null;
}

/**
 * Photos in an S3 bucket (a real S3-protocol server, s3rver, in this process): every path that
 * stores, serves, checks or removes a photo's files goes through the bucket, with the same
 * answers as on the local folder, and nothing of a photo is kept on the server's disk.
 */
describeS3('photos in an S3 bucket', () => {
  let s3: S3TestServer;
  let server: TestServer;
  let staff: Client;
  const prefix = 'school-photos';

  beforeAll(async () => {
    s3 = await startS3Server();
    server = await startTestServer(s3.env(prefix));
    staff = await staffClient(server, 'photographer');
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const bucketKeys = async (): Promise<string[]> => {
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${prefix}/`, ContinuationToken }));
      keys.push(...(page.Contents ?? []).map((item) => (item.Key ?? '').slice(prefix.length + 1)));
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return keys.sort();
  };
  const objectBytes = async (key: string) =>
    Buffer.from(await (await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: `${prefix}/${key}` }))).Body!.transformToByteArray());
  const row = (id: number): Promise<PhotoRow> => server.runtime.knex('photos').where({ id }).first();
  const keysOf = (r: PhotoRow) => [
    objectKey('originals', r.storage_key, 'jpg'),
    objectKey('thumbnails', r.storage_key, 'webp'),
    objectKey('small-thumbnails', r.storage_key, 'webp'),
    objectKey('previews', r.storage_key, 'webp'),
  ];
  const scratchFiles = async () => (await fs.readdir(server.runtime.media.tmpDir).catch(() => [])).filter((name) => !name.startsWith('.'));

  async function uploadBatch(albumId: number, names: string[]): Promise<PhotoRow[]> {
    const files = await Promise.all(names.map(async (name, i) => ({ name, bytes: await solidJpeg(900 + i * 16, 600, '#2a6f97') })));
    const res = await staff.post('/api/photos/upload-batch', photoForm(files, { albumId: String(albumId) }));
    expect(res.status).toBe(201);
    const rows = await Promise.all((res.body.photos as { id: number }[]).map((photo) => row(photo.id)));
    for (const [i, r] of rows.entries()) expect(sha256(await objectBytes(objectKey('originals', r.storage_key, 'jpg')))).toBe(sha256(files[i]!.bytes));
    return rows;
  }

  it('stores an upload batch as objects (original and three renditions each), nothing on the disk', async () => {
    expect(server.runtime.storage.location).toBe(`s3://${s3.bucket}/${prefix}/`);
    const { albumId } = await insertSchoolAndAlbum(server);
    const before = await bucketKeys();
    const rows = await uploadBatch(albumId, ['IMG_2001.JPG', 'IMG_2002.JPG']);
    const added = (await bucketKeys()).filter((key) => !before.includes(key));
    expect(added).toEqual(rows.flatMap(keysOf).sort());
    // The storage folder is never made, and the upload's temp files are gone.
    await expect(fs.access(server.storageDir)).rejects.toThrow();
    expect(await scratchFiles()).toEqual([]);
  });

  it('a bad file of a batch puts nothing in the bucket (the good one goes in), and a failed row commit removes the objects it stored', async () => {
    const { albumId } = await insertSchoolAndAlbum(server);
    const start = await bucketKeys();
    const bad = await staff.post(
      '/api/photos/upload-batch',
      photoForm([{ name: 'IMG_3001.JPG', bytes: await solidJpeg(640, 480) }, { name: 'IMG_3002.JPG', bytes: htmlFile() }], { albumId: String(albumId) }),
    );
    expect(bad.status).toBe(207);
    expect(bad.body.rejected.map((file: { name: string }) => file.name)).toEqual(['IMG_3002.JPG']);
    const [good] = await server.runtime.knex('photos').where({ album_id: albumId, original_name: 'IMG_3001.JPG' });
    // Exactly the good photo's four objects were added.
    expect((await bucketKeys()).filter((key) => !start.includes(key)).sort()).toEqual(keysOf(good).sort());
    const before = await bucketKeys();

    // The database refuses the rows after every object of the batch is in the bucket.
    const { knex } = server.runtime;
    if (TEST_DB === 'mysql') {
      await knex.raw("CREATE TRIGGER refuse_photos BEFORE INSERT ON photos FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'photos refused'");
    } else {
      await knex.raw("CREATE TRIGGER refuse_photos BEFORE INSERT ON photos BEGIN SELECT RAISE(ABORT, 'photos refused'); END");
    }
    try {
      const refused = await staff.post(
        '/api/photos/upload-batch',
        photoForm([{ name: 'IMG_3003.JPG', bytes: await solidJpeg(640, 480) }, { name: 'IMG_3004.JPG', bytes: await solidJpeg(648, 480) }], { albumId: String(albumId) }),
      );
      expect(refused.status).toBe(500);
    } finally {
      await knex.raw('DROP TRIGGER refuse_photos');
    }
    expect(await bucketKeys()).toEqual(before);
    expect(await scratchFiles()).toEqual([]);
  });

  it('serves the renditions from the bucket with the stored ETag, 304 and the same access checks', async () => {
    const { schoolId, albumId } = await insertSchoolAndAlbum(server);
    const [photo, other] = await uploadBatch(albumId, ['IMG_4001.JPG', 'IMG_4002.JPG']);
    const parent = new Client(server.url);
    const cookie = { Cookie: grantCookie(server, { schools: [schoolId] }) };
    expect((await parent.get(`/api/images/${photo!.id}/thumbnail`)).status).toBe(404);
    for (const [route, etag, key] of [
      ['thumbnail', photo!.thumb_etag, objectKey('thumbnails', photo!.storage_key, 'webp')],
      ['thumbnail?size=small', photo!.small_thumb_etag!, objectKey('small-thumbnails', photo!.storage_key, 'webp')],
      ['watermarked', photo!.preview_etag, objectKey('previews', photo!.storage_key, 'webp')],
    ] as const) {
      const res = await parent.get(`/api/images/${photo!.id}/${route}`, cookie);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('etag')).toBe(`"${etag}"`);
      expect(res.headers.get('cache-control')).toMatch(/\bprivate\b/);
      expect((res.body as Buffer).equals(await objectBytes(key))).toBe(true);
      expect((await parent.get(`/api/images/${photo!.id}/${route}`, { ...cookie, 'If-None-Match': `"${etag}"` })).status).toBe(304);
    }
    // A rendition gone from the bucket is a JSON 404, as a file gone from the folder is. One this
    // process read a moment ago is still answered from memory, for at most 10 minutes
    // (docs/images.md, "Serving images").
    await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: `${prefix}/${objectKey('previews', photo!.storage_key, 'webp')}` }));
    const kept = await parent.get(`/api/images/${photo!.id}/watermarked`, cookie);
    expect(kept.status).toBe(200);
    expect(kept.headers.get('etag')).toBe(`"${photo!.preview_etag}"`);
    await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: `${prefix}/${objectKey('previews', other!.storage_key, 'webp')}` }));
    const gone = await parent.get(`/api/images/${other!.id}/watermarked`, cookie);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ message: MSG.imageNotFound });
  });

  it('reports an original gone from the bucket, restores it, and backfills a small thumbnail from the bucket', async () => {
    const { albumId } = await insertSchoolAndAlbum(server);
    const [kept, lost] = await uploadBatch(albumId, ['IMG_5001.JPG', 'IMG_5002.JPG']);
    await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: `${prefix}/${objectKey('originals', lost!.storage_key, 'jpg')}` }));
    const missing = await staff.get('/api/photos/missing');
    const ids = (missing.body.missingPhotos as { id: number }[]).map((p) => p.id);
    expect(ids).toContain(lost!.id);
    expect(ids).not.toContain(kept!.id);

    const replacement = await solidJpeg(1000, 750, '#8a2be2');
    const restored = await staff.post('/api/photos/restore', photoForm([{ name: 'IMG_5002.JPG', bytes: replacement }], { albumId: String(albumId) }));
    expect(restored.body.results).toEqual([{ filename: 'IMG_5002.JPG', success: true, message: MSG.restoredPhoto }]);
    expect((await objectBytes(objectKey('originals', lost!.storage_key, 'jpg'))).equals(replacement)).toBe(true);
    const after = await row(lost!.id);
    expect(after.thumb_etag).not.toBe(lost!.thumb_etag);
    expect(((await staff.get('/api/photos/missing')).body.missingPhotos as { id: number }[]).map((p) => p.id)).not.toContain(lost!.id);

    // A photo from before small thumbnails: the backfill reads its original from the bucket.
    await forgetSmallThumbnail(server, kept!.id);
    await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: `${prefix}/${objectKey('small-thumbnails', kept!.storage_key, 'webp')}` }));
    const backfilled = await createPhotoService(server.runtime).backfillSmallThumbnails();
    expect(backfilled.made).toBeGreaterThanOrEqual(1);
    const refreshed = await row(kept!.id);
    expect(refreshed.small_thumb_etag).toBeTruthy();
    expect((await objectBytes(objectKey('small-thumbnails', kept!.storage_key, 'webp'))).subarray(8, 12).toString()).toBe('WEBP');
  });

  it('deleting photos removes their objects', async () => {
    const { albumId } = await insertSchoolAndAlbum(server);
    const rows = await uploadBatch(albumId, ['IMG_6001.JPG', 'IMG_6002.JPG']);
    // Bulk-deleting photos is an admin's (docs/accounts.md, "What a photographer may not do").
    const admin = await staffClient(server, 'admin');
    const res = await admin.delete('/api/photos/bulk-delete', { photoIds: rows.map((r) => r.id) });
    expect(res.body).toMatchObject({ deletedCount: 2 });
    const keys = await bucketKeys();
    expect(rows.flatMap(keysOf).filter((key) => keys.includes(key))).toEqual([]);
  });

  it('example images of a price list live in the bucket and are served from it', async () => {
    const png = await solidJpeg(300, 200, '#ffaa00');
    const form = new FormData();
    form.append('name', 'Bucket List');
    form.append('description', '');
    form.append('products[0][name]', 'Framed Print');
    form.append('products[0][description]', 'Oak');
    form.append('products[0][price]', '55.00');
    form.append('products[0][exampleImage]', new Blob([new Uint8Array(png)], { type: 'image/jpeg' }), 'frame.jpg');
    const created = await staff.post('/api/price-lists', form);
    expect(created.status).toBe(201);
    const url = (created.body.items as { exampleImage: string }[])[0]!.exampleImage;
    const name = url.slice('/api/example-images/'.length);
    expect(await bucketKeys()).toContain(`examples/${name}`);
    const served = await new Client(server.url).get(url);
    expect(served.status).toBe(200);
    expect((served.body as Buffer).equals(await objectBytes(`examples/${name}`))).toBe(true);
    expect((await new Client(server.url).get(url, { 'If-None-Match': served.headers.get('etag')! })).status).toBe(304);
    expect((await staff.delete(`/api/price-lists/${created.body.id}`)).status).toBe(200);
    expect(await bucketKeys()).not.toContain(`examples/${name}`);
  });

  it("a paid digital copy's download and the lab's ZIP stream the originals from the bucket", async () => {
    const shop = await createShop(server);
    const parent = await parentFor(server, shop);
    const photo = await addPhoto(server, shop.openAlbumId, 'IMG_7001.JPG', await distinctJpeg(71));
    const orderId = await paidOrder(server, parent, shop, [
      { photoId: photo.id, albumId: shop.openAlbumId, product: shop.digital, quantity: 1 },
      { photoId: photo.id, albumId: shop.openAlbumId, product: shop.print, quantity: 1 },
    ]);
    const order = await parent.get(`/api/orders/${orderId}`);
    const link = (order.body.items as { downloadUrl?: string | null }[]).find((item) => item.downloadUrl)?.downloadUrl;
    expect(link).toBeTruthy();
    const download = await fetch(`${server.url}${new URL(link!).pathname}`);
    expect(download.status).toBe(200);
    expect(Number(download.headers.get('content-length'))).toBe(photo.bytes.length);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(photo.bytes));

    const batch = await staff.post('/api/print-batches', { schoolId: shop.schoolId });
    expect(batch.status).toBe(201);
    const zip = await staff.get(`/api/print-batches/${batch.body.id}/files.zip`);
    expect(zip.status).toBe(200);
    const entries = await readZip(zip.body as Buffer);
    const jpeg = entries.find((entry) => entry.name.endsWith('IMG_7001.JPG'));
    expect(jpeg && sha256(jpeg.data)).toBe(sha256(photo.bytes));
  });

  it('while the S3 server is down, images are a 503 with Retry-After, and served again after', async () => {
    const { schoolId, albumId } = await insertSchoolAndAlbum(server);
    const [photo] = await uploadBatch(albumId, ['IMG_8001.JPG']);
    const cookie = { Cookie: grantCookie(server, { schools: [schoolId] }) };
    await s3.stop();
    try {
      const down = await new Client(server.url).get(`/api/images/${photo!.id}/thumbnail`, cookie);
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ message: HARDENING_MSG.databaseUnavailable, code: 'STORAGE_UNAVAILABLE', requestId: down.headers.get('x-request-id') });
      expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await s3.start();
    }
    expect((await new Client(server.url).get(`/api/images/${photo!.id}/thumbnail`, cookie)).status).toBe(200);
  });
});
