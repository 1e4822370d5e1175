import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { MSG } from '../../contract/messages';
import { Client, describeApi, withoutRequestId, grantCookie, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { solidJpeg } from '../../test/images';
import { insertSchoolAndAlbum, photoForm, shardedPath } from '../photos/photos.test-helpers';

interface Fixture {
  schoolId: number;
  albumId: number;
  photoId: number;
  key: string;
  thumbEtag: string;
  previewEtag: string;
  original: Buffer;
}

describeApi('images API', () => {
  let server: TestServer;
  let staff: Client;
  let parent: Client;
  let open: Fixture;
  let locked: Fixture;

  async function photoIn(classPassword: boolean): Promise<Fixture> {
    const { schoolId, albumId } = await insertSchoolAndAlbum(server, { classPassword });
    const original = await solidJpeg(2000, 1500, '#336699');
    const res = await staff.post('/api/photos/upload-batch', photoForm([{ name: 'IMG_0001.JPG', bytes: original }], { albumId: String(albumId) }));
    expect(res.status).toBe(201);
    const photoId = res.body.photos[0].id as number;
    const row = await server.runtime.knex('photos').where({ id: photoId }).first();
    return { schoolId, albumId, photoId, key: row.storage_key, thumbEtag: row.thumb_etag, previewEtag: row.preview_etag, original };
  }

  beforeAll(async () => {
    server = await startTestServer();
    staff = await staffClient(server, 'photographer');
    parent = new Client(server.url);
    open = await photoIn(false);
    locked = await photoIn(true);
  });
  afterAll(() => server?.close());

  const cookie = (grant: { schools: number[]; albums?: number[] }) => ({ Cookie: grantCookie(server, grant) });

  for (const [route, etagOf, maxSide] of [
    ['thumbnail', (f: Fixture) => f.thumbEtag, 400],
    ['watermarked', (f: Fixture) => f.previewEtag, 1280],
  ] as const) {
    describe(`GET /api/images/:id/${route}`, () => {
      const url = (f: Fixture | number) => `/api/images/${typeof f === 'number' ? f : f.photoId}/${route}`;

      it('404 JSON for an unknown photo', async () => {
        const res = await parent.get(url(999999));
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ message: MSG.photoNotFound });
        expect((await parent.get(`/api/images/abc/${route}`)).status).toBe(404);
      });

      // Issue 22 point 8: a photo the viewer may not see is 404 like one that does not exist (was 401 and 403).
      it('404 without a grant for the school and for a locked class with only the school grant, as for an unknown photo', async () => {
        const none = await parent.get(url(open));
        expect(none.status).toBe(404);
        expect(none.body.message).toBe(MSG.photoNotFound);
        expect((await parent.get(url(open), cookie({ schools: [locked.schoolId] }))).status).toBe(404);
        const schoolOnly = await parent.get(url(locked), cookie({ schools: [locked.schoolId] }));
        expect(schoolOnly.status).toBe(404);
        expect(withoutRequestId(schoolOnly.body)).toEqual(withoutRequestId((await parent.get(url(999999))).body));
        expect((await parent.get(url(locked), cookie({ schools: [locked.schoolId], albums: [locked.albumId] }))).status).toBe(200);
      });

      it('streams the stored WebP with validators and private caching', async () => {
        const res = await parent.get(url(open), cookie({ schools: [open.schoolId] }));
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/webp');
        expect(res.headers.get('etag')).toBe(`"${etagOf(open)}"`);
        const cacheControl = res.headers.get('cache-control') ?? '';
        expect(cacheControl).toMatch(/\bprivate\b/);
        expect(Number(/max-age=(\d+)/.exec(cacheControl)?.[1])).toBeGreaterThanOrEqual(86400);
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
        const body = res.body as Buffer;
        const stored = await fs.readFile(shardedPath(server, route === 'thumbnail' ? 'thumbnails' : 'previews', open.key, 'webp'));
        expect(body.equals(stored)).toBe(true);
        const meta = await sharp(body).metadata();
        expect(meta.format).toBe('webp');
        expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(maxSide);
        expect(body.equals(open.original)).toBe(false);
      });

      it('304 when If-None-Match names the current ETag', async () => {
        const headers = { ...cookie({ schools: [open.schoolId] }), 'If-None-Match': `"${etagOf(open)}"` };
        const res = await parent.get(url(open), headers);
        expect(res.status).toBe(304);
        expect(res.headers.get('etag')).toBe(`"${etagOf(open)}"`);
        expect((await parent.get(url(open), { ...headers, 'If-None-Match': '"stale"' })).status).toBe(200);
      });

      it('staff need no grant', async () => {
        expect((await staff.get(url(locked))).status).toBe(200);
      });
    });
  }

  it('404 JSON when the rendition file is gone from storage', async () => {
    const victim = await photoIn(false);
    await fs.rm(shardedPath(server, 'previews', victim.key, 'webp'));
    const res = await staff.get(`/api/images/${victim.photoId}/watermarked`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ message: MSG.imageNotFound });
  });

  describe('GET /api/example-images/:file', () => {
    async function storeExample(): Promise<string> {
      const file = path.join(server.runtime.media.tmpDir, `example-${Date.now()}`);
      await fs.writeFile(file, await solidJpeg(1200, 900, '#884422'));
      try {
        return await server.runtime.media.storeExampleImage({ path: file, originalName: 'frame.jpg', size: 0 });
      } finally {
        await fs.rm(file, { force: true });
      }
    }

    it('serves a stored example publicly with long caching and 304', async () => {
      const name = await storeExample();
      const res = await parent.get(`/api/example-images/${name}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('cache-control')).toBe('public, max-age=604800');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await sharp(res.body as Buffer).metadata()).toMatchObject({ format: 'webp', width: 800, height: 600 });
      const etag = res.headers.get('etag') ?? '';
      expect((await parent.get(`/api/example-images/${name}`, { 'If-None-Match': etag })).status).toBe(304);
    });

    it('404 for names that are not stored example files, including traversal attempts', async () => {
      for (const name of ['..%2F..%2Fjwt-secret', '..%2Fexamples%2Fx.webp', 'abc.webp', `${'a'.repeat(32)}.png`, `${'b'.repeat(32)}.webp`]) {
        const res = await parent.get(`/api/example-images/${name}`);
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ message: expect.any(String) });
      }
    });
  });
});
