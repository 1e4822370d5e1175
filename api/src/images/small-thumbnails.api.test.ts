import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { SMALL_THUMBNAIL_MAX_SIDE, THUMBNAIL_MAX_SIDE } from '../../contract/constants';
import { THUMBNAIL_MSG } from '../../contract/messages';
import { Client, describeApi, grantCookie, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { solidJpeg } from '../../test/images';
import { insertSchoolAndAlbum, photoForm, shardedPath } from '../photos/photos.test-helpers';
import { createPhotoService } from '../photos/photos.service';
import { forgetSmallThumbnail } from '../../test/fixtures';

describeApi('small thumbnails', () => {
  let server: TestServer;
  let staff: Client;
  let parent: Client;
  let schoolId: number;
  let albumId: number;

  async function upload(name: string): Promise<{ id: number; key: string }> {
    const res = await staff.post('/api/photos/upload-batch', photoForm([{ name, bytes: await solidJpeg(2400, 1600, '#557799') }], { albumId: String(albumId) }));
    expect(res.status).toBe(201);
    const id = res.body.photos[0].id as number;
    const row = await server.runtime.knex('photos').where({ id }).first();
    return { id, key: row.storage_key };
  }

  beforeAll(async () => {
    server = await startTestServer();
    staff = await staffClient(server, 'photographer');
    parent = new Client(server.url);
    ({ schoolId, albumId } = await insertSchoolAndAlbum(server));
  });
  afterAll(() => server?.close());

  const granted = (headers: Record<string, string> = {}) => ({ Cookie: grantCookie(server, { schools: [schoolId] }), ...headers });
  const longestSide = async (body: Buffer) => {
    const meta = await sharp(body).metadata();
    return Math.max(meta.width ?? 0, meta.height ?? 0);
  };

  it('is made at upload beside the 400 px one and stored with its own size and validator', async () => {
    const { id, key } = await upload('IMG_0101.JPG');
    const row = await server.runtime.knex('photos').where({ id }).first();
    expect([Number(row.small_thumb_width), Number(row.small_thumb_height)]).toEqual([320, 214]);
    expect(row.small_thumb_etag).toMatch(/^[a-f0-9]{32}$/);
    expect(row.small_thumb_etag).not.toBe(row.thumb_etag);
    const stored = await fs.readFile(shardedPath(server, 'small-thumbnails', key, 'webp'));
    expect(await longestSide(stored)).toBe(SMALL_THUMBNAIL_MAX_SIDE);
  });

  it('?size=small and Save-Data: on get the small one; otherwise the 400 px one, with Vary: Save-Data', async () => {
    const { id } = await upload('IMG_0102.JPG');
    const url = `/api/images/${id}/thumbnail`;
    const full = await parent.get(url, granted());
    const small = await parent.get(`${url}?size=small`, granted());
    const saveData = await parent.get(url, granted({ 'Save-Data': 'on' }));
    const noSaving = await parent.get(url, granted({ 'Save-Data': 'off' }));
    for (const res of [full, small, saveData, noSaving]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('vary') ?? '').toMatch(/Save-Data/i);
      expect(res.headers.get('cache-control')).toMatch(/\bprivate\b/);
    }
    expect(await longestSide(full.body)).toBe(THUMBNAIL_MAX_SIDE);
    expect(await longestSide(noSaving.body)).toBe(THUMBNAIL_MAX_SIDE);
    expect(await longestSide(small.body)).toBe(SMALL_THUMBNAIL_MAX_SIDE);
    expect((saveData.body as Buffer).equals(small.body as Buffer)).toBe(true);
    expect((small.body as Buffer).length).toBeLessThan((full.body as Buffer).length);
    expect(small.headers.get('etag')).not.toBe(full.headers.get('etag'));
    expect((await parent.get(`${url}?size=small`, granted({ 'If-None-Match': small.headers.get('etag')! }))).status).toBe(304);
    // The full thumbnail's validator does not match the small one.
    expect((await parent.get(`${url}?size=small`, granted({ 'If-None-Match': full.headers.get('etag')! }))).status).toBe(200);
  });

  it('checks access first and refuses an unknown size', async () => {
    const { id } = await upload('IMG_0103.JPG');
    expect((await parent.get(`/api/images/${id}/thumbnail?size=small`)).status).toBe(404);
    const bad = await parent.get(`/api/images/${id}/thumbnail?size=huge`, granted());
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(THUMBNAIL_MSG.badSize);
  });

  describe('backfill for photos stored before it existed', () => {
    it('serves the full thumbnail until the backfill, which makes the small one once', async () => {
      const { id, key } = await upload('IMG_0201.JPG');
      const { knex } = server.runtime;
      // As a photo uploaded before the small rendition existed: no columns, no file.
      await forgetSmallThumbnail(server, id);
      await fs.rm(shardedPath(server, 'small-thumbnails', key, 'webp'));
      const before = await parent.get(`/api/images/${id}/thumbnail?size=small`, granted());
      expect(before.status).toBe(200);
      expect(await longestSide(before.body)).toBe(THUMBNAIL_MAX_SIDE);

      // A photo whose original is gone is skipped, not failed.
      const gone = await upload('IMG_0202.JPG');
      await forgetSmallThumbnail(server, gone.id, { etagOnly: true });
      await fs.rm(shardedPath(server, 'originals', gone.key, 'jpg'));

      const photos = createPhotoService(server.runtime);
      const first = await photos.backfillSmallThumbnails();
      expect(first).toEqual({ made: 1, skipped: 1 });
      const row = await knex('photos').where({ id }).first();
      expect([Number(row.small_thumb_width), Number(row.small_thumb_height)]).toEqual([320, 214]);
      const after = await parent.get(`/api/images/${id}/thumbnail?size=small`, granted());
      expect(await longestSide(after.body)).toBe(SMALL_THUMBNAIL_MAX_SIDE);
      expect(after.headers.get('etag')).toBe(`"${row.small_thumb_etag}"`);

      // Idempotent: nothing left to make, the missing original still skipped.
      expect(await photos.backfillSmallThumbnails()).toEqual({ made: 0, skipped: 1 });
    });

    it('deleting a photo removes its small thumbnail too', async () => {
      const { id, key } = await upload('IMG_0301.JPG');
      const file = shardedPath(server, 'small-thumbnails', key, 'webp');
      await fs.access(file);
      // Bulk delete is an admin's (docs/accounts.md, "What a photographer may not do").
      expect((await (await staffClient(server, 'admin')).delete('/api/photos/bulk-delete', { photoIds: [id] })).status).toBe(200);
      await expect(fs.access(file)).rejects.toThrow();
    });
  });
});
