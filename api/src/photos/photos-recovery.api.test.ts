import fs from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MSG } from '../../contract/messages';
import { missingPhotosReportSchema, restoreResponseSchema } from '../../contract/photos';
import { describeApi, startWithVisitors, type Client, type TestServer } from '../../test/harness';
import { alphaPng, htmlFile, solidJpeg } from '../../test/images';
import { exists, insertSchoolAndAlbum, photoForm, shardedPath } from './photos.test-helpers';

describeApi('photos API: missing originals, cleanup and restore', () => {
  let server: TestServer;
  let staff: Client;
  let anonymous: Client;
  let customer: Client;
  beforeAll(async () => ({ server, staff, anon: anonymous, customer } = await startWithVisitors('photographer')));
  afterAll(() => server?.close());

  interface Row {
    id: number;
    storage_key: string;
    original_name: string;
    mime_type: string;
    filename: string;
    preview_etag: string;
    small_thumb_etag: string | null;
    small_thumb_width: number | null;
    small_thumb_height: number | null;
    file_size: number;
  }
  const row = (id: number): Promise<Row | undefined> => server.runtime.knex('photos').where({ id }).first();
  const ext = (r: Row) => r.filename.split('.').pop() ?? '';

  /** Uploads photos through the API and returns their rows by original name. */
  async function upload(albumId: number, names: string[]): Promise<Record<string, Row>> {
    const files = await Promise.all(names.map(async (name, i) => ({ name, bytes: await solidJpeg(200 + i, 150) })));
    const res = await staff.post('/api/photos/upload-batch', photoForm(files, { albumId: String(albumId) }));
    expect(res.status).toBe(201);
    const rows: Row[] = await server.runtime.knex('photos').whereIn('original_name', names).where({ album_id: albumId });
    return Object.fromEntries(rows.map((r) => [r.original_name, r]));
  }

  const dropOriginal = (r: Row) => fs.rm(shardedPath(server, 'originals', r.storage_key, ext(r)));

  it('401 without a token and 403 for a customer on every recovery endpoint', async () => {
    for (const client of [anonymous, customer]) {
      const expected = client === anonymous ? 401 : 403;
      expect((await client.get('/api/photos/missing')).status).toBe(expected);
      expect((await client.delete('/api/photos/cleanup-missing', { deleteFromDatabase: true })).status).toBe(expected);
      expect((await client.post('/api/photos/restore', photoForm([{ name: 'a.jpg', bytes: Buffer.from('x') }]))).status).toBe(expected);
    }
  });

  it('400 when cleanup is not confirmed and when restore has no files', async () => {
    const cleanup = await staff.delete('/api/photos/cleanup-missing', {});
    expect(cleanup.status).toBe(400);
    expect(cleanup.body.errors).toHaveProperty('deleteFromDatabase');
    const { albumId } = await insertSchoolAndAlbum(server);
    const restore = await staff.post('/api/photos/restore', photoForm([], { albumId: String(albumId) }));
    expect(restore.status).toBe(400);
    expect(restore.body.message).toBe(MSG.noFilesSelected);
  });

  it('reports photos whose original is gone, with their class and school', async () => {
    const { albumId, albumName, schoolId, schoolName } = await insertSchoolAndAlbum(server);
    const rows = await upload(albumId, ['IMG_5001.JPG', 'IMG_5002.JPG']);
    const gone = rows['IMG_5001.JPG'] as Row;
    await dropOriginal(gone);

    const res = await staff.get('/api/photos/missing');
    expect(res.status).toBe(200);
    const report = missingPhotosReportSchema.strict().parse(res.body);
    expect(report.totalInDatabase).toBeGreaterThanOrEqual(2);
    const entry = report.missingPhotos.find((p) => p.id === gone.id);
    expect(entry).toMatchObject({ filename: gone.filename, originalName: 'IMG_5001.JPG', albumId, albumName, schoolId, schoolName });
    expect(report.missingPhotos.some((p) => p.id === rows['IMG_5002.JPG']?.id)).toBe(false);
  });

  it('restores a missing original by name, rebuilding the renditions and updating the row', async () => {
    const { albumId } = await insertSchoolAndAlbum(server);
    const rows = await upload(albumId, ['IMG_6001.JPG']);
    const before = rows['IMG_6001.JPG'] as Row;
    await dropOriginal(before);
    const replacement = await alphaPng(640, 480);
    const res = await staff.post(
      '/api/photos/restore',
      photoForm([
        { name: 'img_6001.jpg', bytes: replacement, type: 'image/png' },
        { name: 'IMG_9999.JPG', bytes: await solidJpeg(50, 50) },
      ], { albumId: String(albumId) }),
    );
    expect(res.status).toBe(200);
    const { results } = restoreResponseSchema.strict().parse(res.body);
    expect(results).toEqual(
      expect.arrayContaining([
        { filename: 'img_6001.jpg', success: true, message: MSG.restoredPhoto },
        { filename: 'IMG_9999.JPG', success: false, message: MSG.noMissingPhotos },
      ]),
    );
    const after = (await row(before.id)) as Row;
    expect(after).toMatchObject({ storage_key: before.storage_key, mime_type: 'image/png', filename: `${before.storage_key}.png`, file_size: replacement.length });
    expect(after.preview_etag).not.toBe(before.preview_etag);
    // The small thumbnail is rebuilt with the others (a restore also covers photos that lacked one).
    expect(after.small_thumb_etag).not.toBe(before.small_thumb_etag);
    expect([Number(after.small_thumb_width), Number(after.small_thumb_height)]).toEqual([320, 240]);
    await fs.access(shardedPath(server, 'small-thumbnails', after.storage_key, 'webp'));
    expect(await fs.readFile(shardedPath(server, 'originals', after.storage_key, 'png'))).toEqual(replacement);
    expect((await staff.get('/api/photos/missing')).body.missingPhotos.some((p: { id: number }) => p.id === before.id)).toBe(false);
  });

  it('reports a restore file that is not an image without touching the row', async () => {
    const { albumId } = await insertSchoolAndAlbum(server);
    const rows = await upload(albumId, ['IMG_7001.JPG']);
    const before = rows['IMG_7001.JPG'] as Row;
    await dropOriginal(before);
    const res = await staff.post('/api/photos/restore', photoForm([{ name: 'IMG_7001.JPG', bytes: htmlFile() }], { albumId: String(albumId) }));
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([{ filename: 'IMG_7001.JPG', success: false, message: MSG.fileNotImage('IMG_7001.JPG') }]);
    expect(await row(before.id)).toEqual(before);
  });

  it('cleans up rows with missing originals and their leftover renditions', async () => {
    const { albumId } = await insertSchoolAndAlbum(server);
    const rows = await upload(albumId, ['IMG_8001.JPG', 'IMG_8002.JPG']);
    const gone = rows['IMG_8001.JPG'] as Row;
    const kept = rows['IMG_8002.JPG'] as Row;
    await dropOriginal(gone);
    const missingBefore = (await staff.get('/api/photos/missing')).body.missingPhotos.length as number;

    const res = await staff.delete('/api/photos/cleanup-missing', { deleteFromDatabase: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deletedCount: missingBefore });
    expect(await row(gone.id)).toBeUndefined();
    expect(await row(kept.id)).toBeDefined();
    expect(await exists(shardedPath(server, 'thumbnails', gone.storage_key, 'webp'))).toBe(false);
    expect(await exists(shardedPath(server, 'previews', gone.storage_key, 'webp'))).toBe(false);
    expect(await exists(shardedPath(server, 'originals', kept.storage_key, 'jpg'))).toBe(true);
    expect((await staff.get('/api/photos/missing')).body).toMatchObject({ missingPhotos: [] });
  });
});
