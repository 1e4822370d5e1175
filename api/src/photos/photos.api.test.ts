import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../contract/messages';
import { UPLOAD_MAX_FILE_BYTES } from '../../contract/constants';
import { familyPhotoSchema, photoSchema, uploadBatchResponseSchema } from '../../contract/photos';
import { Client, describeApi, grantCookie, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { alphaPng, gif, htmlFile, solidJpeg, truncatedJpeg } from '../../test/images';
import { SELECT_CLASS_FIRST } from './photos.routes';
import { customerClient, insertSchoolAndAlbum, photoForm, shardedPath, storageFiles } from './photos.test-helpers';

describeApi('photos API: upload, list, delete', () => {
  let server: TestServer;
  let photographer: Client;
  let admin: Client;
  let anonymous: Client;
  let customer: Client;

  beforeAll(async () => {
    server = await startTestServer();
    photographer = await staffClient(server, 'photographer');
    admin = await staffClient(server, 'admin');
    anonymous = new Client(server.url);
    customer = await customerClient(server);
  });
  afterAll(() => server?.close());

  const rowsOf = (albumId: number) => server.runtime.knex('photos').where({ album_id: albumId }).orderBy('id');
  const tmpEntries = () => fs.readdir(server.runtime.media.tmpDir);

  describe('POST /api/photos/upload-batch', () => {
    it('401 without a token and 403 for a customer token', async () => {
      const { albumId } = await insertSchoolAndAlbum(server);
      const form = () => photoForm([{ name: 'a.jpg', bytes: Buffer.from('x') }], { albumId: String(albumId) });
      expect((await anonymous.post('/api/photos/upload-batch', form())).status).toBe(401);
      expect((await customer.post('/api/photos/upload-batch', form())).status).toBe(403);
    });

    it('400 naming the class, 400 without files, 404 for an unknown class', async () => {
      const jpeg = await solidJpeg(64, 64);
      const missing = await photographer.post('/api/photos/upload-batch', photoForm([{ name: 'a.jpg', bytes: jpeg }]));
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ message: SELECT_CLASS_FIRST, errors: { albumId: SELECT_CLASS_FIRST } });
      const { albumId } = await insertSchoolAndAlbum(server);
      const empty = await photographer.post('/api/photos/upload-batch', photoForm([], { albumId: String(albumId) }));
      expect(empty.status).toBe(400);
      expect(empty.body.message).toBe(MSG.noFilesSelected);
      const unknown = await photographer.post('/api/photos/upload-batch', photoForm([{ name: 'a.jpg', bytes: jpeg }], { albumId: '999999' }));
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe(MSG.classNotFound);
    });

    it('stores a batch: rows, sharded files, originals byte-identical, no client names on disk', async () => {
      const { albumId } = await insertSchoolAndAlbum(server);
      const files = [
        { name: 'IMG_0423.JPG', bytes: await solidJpeg(1600, 1200) },
        { name: '../../escape.png', bytes: await alphaPng(300, 200), type: 'image/png' },
        { name: 'party.gif', bytes: await gif(120, 90, 3), type: 'image/gif' },
      ];
      const res = await photographer.post('/api/photos/upload-batch', photoForm(files, { albumId: String(albumId) }));
      expect(res.status).toBe(201);
      const body = uploadBatchResponseSchema.strict().parse(res.body);
      expect(body).toMatchObject({ message: 'Uploaded 3 photos', uploaded: 3 });
      expect(body.photos.map((p) => [p.originalName, p.thumbnailWidth, p.thumbnailHeight])).toEqual([
        ['escape.png', 300, 200],
        ['IMG_0423.JPG', 400, 300],
        ['party.gif', 120, 90],
      ]);
      for (const photo of body.photos) photoSchema.strict().parse(photo);

      const rows = await rowsOf(albumId);
      const byName = Object.fromEntries(rows.map((r) => [r.original_name as string, r]));
      expect(byName['IMG_0423.JPG']).toMatchObject({ original_number: '0423', mime_type: 'image/jpeg' });
      expect(byName['escape.png']).toMatchObject({ original_number: null, mime_type: 'image/png' });
      expect(byName['party.gif']).toMatchObject({ original_number: null, mime_type: 'image/gif' });
      for (const file of files) {
        const row = byName[file.name.replace('../../', '')];
        const ext = row.filename.split('.').pop();
        expect(row.filename).toBe(`${row.storage_key}.${ext}`);
        expect(await fs.readFile(shardedPath(server, 'originals', row.storage_key, ext))).toEqual(file.bytes);
        await fs.access(shardedPath(server, 'thumbnails', row.storage_key, 'webp'));
        await fs.access(shardedPath(server, 'previews', row.storage_key, 'webp'));
      }
      const onDisk = await storageFiles(server);
      expect(onDisk.some((f) => /IMG_0423|escape|party/i.test(f))).toBe(false);
      expect(await tmpEntries()).toEqual([]);
    });

    it('lets an admin upload too', async () => {
      const { albumId } = await insertSchoolAndAlbum(server);
      const res = await admin.post('/api/photos/upload-batch', photoForm([{ name: 'IMG_1.jpg', bytes: await solidJpeg(50, 50) }], { albumId: String(albumId) }));
      expect(res.status).toBe(201);
    });

    it('a renamed HTML file refuses only itself (207 naming it); a batch of nothing but bad files stores nothing (415)', async () => {
      const { albumId } = await insertSchoolAndAlbum(server);
      const before = await storageFiles(server);
      const res = await photographer.post(
        '/api/photos/upload-batch',
        photoForm(
          [
            { name: 'IMG_1.jpg', bytes: await solidJpeg(200, 100) },
            { name: 'IMG_2.jpg', bytes: htmlFile() },
          ],
          { albumId: String(albumId) },
        ),
      );
      expect(res.status).toBe(207);
      const body = uploadBatchResponseSchema.strict().parse(res.body);
      expect(body.rejected).toEqual([{ name: 'IMG_2.jpg', reason: MSG.fileNotImage('IMG_2.jpg') }]);
      expect(body.photos.map((photo) => photo.originalName)).toEqual(['IMG_1.jpg']);
      expect((await rowsOf(albumId)).map((row) => row.original_name)).toEqual(['IMG_1.jpg']);
      // Only the stored photo's original and renditions were written.
      expect((await storageFiles(server)).length - before.length).toBe(4);

      const allBad = await photographer.post(
        '/api/photos/upload-batch',
        photoForm([{ name: 'IMG_3.jpg', bytes: htmlFile() }, { name: 'IMG_4.jpg', bytes: await truncatedJpeg() }], { albumId: String(albumId) }),
      );
      expect(allBad.status).toBe(415);
      expect(allBad.body).toMatchObject({
        message: MSG.fileNotImage('IMG_3.jpg'),
        rejected: [
          { name: 'IMG_3.jpg', reason: MSG.fileNotImage('IMG_3.jpg') },
          { name: 'IMG_4.jpg', reason: MSG.fileCorrupt('IMG_4.jpg') },
        ],
      });
      expect(await rowsOf(albumId)).toHaveLength(1);
      expect((await storageFiles(server)).length - before.length).toBe(4);
    });

    it('a batch of ten with one corrupt file stores the other nine in their capture order, and a resend adds nothing', async () => {
      const { albumId } = await insertSchoolAndAlbum(server);
      const files: { name: string; bytes: Buffer }[] = [];
      for (let i = 0; i < 10; i++) files.push({ name: `IMG_${20 + i}.jpg`, bytes: i === 4 ? await truncatedJpeg() : await solidJpeg(300, 200, `#${(i * 23 + 16).toString(16).padStart(2, '0')}3300`) });
      const capture = JSON.stringify({ sessionId: 'one-bad-file-session', files: files.map((file, seq) => ({ name: file.name, size: file.bytes.length, seq })) });
      const send = () => photographer.post('/api/photos/upload-batch', photoForm(files, { albumId: String(albumId), capture }));
      const before = await storageFiles(server);
      const res = await send();
      expect(res.status).toBe(207);
      expect(res.body.rejected).toEqual([{ name: 'IMG_24.jpg', reason: MSG.fileCorrupt('IMG_24.jpg') }]);
      expect(res.body.uploaded).toBe(9);
      const rows = await rowsOf(albumId);
      // The refused file leaves a gap in the capture order; it never shifts the photos after it.
      expect(rows.map((row) => [row.original_name, Number(row.capture_seq)]).sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual(
        files.flatMap((file, seq) => (seq === 4 ? [] : [[file.name, seq]])),
      );
      expect((await storageFiles(server)).length - before.length).toBe(9 * 4);

      // The queue resends a batch whose answer was lost: nothing is stored twice.
      const again = await send();
      expect(again.status).toBe(207);
      expect(again.body.uploaded).toBe(9);
      expect(await rowsOf(albumId)).toHaveLength(9);
      expect((await storageFiles(server)).length - before.length).toBe(9 * 4);
    });

    it('413 for a file over 10 MB while streaming, leaving no temp files', async () => {
      const { albumId } = await insertSchoolAndAlbum(server);
      const big = Buffer.alloc(UPLOAD_MAX_FILE_BYTES + 1, 1);
      big.set([0xff, 0xd8, 0xff], 0);
      const res = await photographer.post('/api/photos/upload-batch', photoForm([{ name: 'huge.jpg', bytes: big }], { albumId: String(albumId) }));
      expect(res.status).toBe(413);
      expect(res.body.message).toBe(MSG.fileTooLarge('huge.jpg'));
      expect(await tmpEntries()).toEqual([]);
    });
  });

  describe('GET /api/albums/:id/photos', () => {
    it('404 for an unknown class, 401 without the school grant, 403 for a locked class', async () => {
      expect((await anonymous.get('/api/albums/999999/photos')).status).toBe(404);
      const open = await insertSchoolAndAlbum(server);
      const locked = await insertSchoolAndAlbum(server, { classPassword: true });
      const res = await anonymous.get(`/api/albums/${open.albumId}/photos`);
      expect(res.status).toBe(401);
      expect(res.body.message).toBe(MSG.schoolAccessRequired);
      const otherSchool = { Cookie: grantCookie(server, { schools: [locked.schoolId] }) };
      expect((await anonymous.get(`/api/albums/${open.albumId}/photos`, otherSchool)).status).toBe(401);
      const schoolOnly = await anonymous.get(`/api/albums/${locked.albumId}/photos`, otherSchool);
      expect(schoolOnly.status).toBe(403);
      expect(schoolOnly.body.message).toBe(MSG.classAccessRequired);
      const unlocked = { Cookie: grantCookie(server, { schools: [locked.schoolId], albums: [locked.albumId] }) };
      expect((await anonymous.get(`/api/albums/${locked.albumId}/photos`, unlocked)).status).toBe(200);
    });

    it('lists the photos in frame order for a parent with access and for staff', async () => {
      const { schoolId, albumId } = await insertSchoolAndAlbum(server);
      const names = ['IMG_10.jpg', 'img_9.jpg', 'IMG_2.jpg', 'IMG_100.jpg'];
      const files = await Promise.all(names.map(async (name) => ({ name, bytes: await solidJpeg(40, 30) })));
      expect((await photographer.post('/api/photos/upload-batch', photoForm(files, { albumId: String(albumId) }))).status).toBe(201);

      const res = await anonymous.get(`/api/albums/${albumId}/photos`, { Cookie: grantCookie(server, { schools: [schoolId] }) });
      expect(res.status).toBe(200);
      // Issue 22 point 8: a family gets the frame number, never the camera's file name; staff get both.
      const photos = familyPhotoSchema.array().parse(res.body);
      expect(photos.map((p) => p.originalNumber)).toEqual(['2', '9', '10', '100']);
      expect(photos[0]).toMatchObject({ albumId, thumbnailWidth: 40, thumbnailHeight: 30 });
      const staffPhotos = photoSchema.strict().array().parse((await photographer.get(`/api/albums/${albumId}/photos`)).body);
      expect(staffPhotos.map((p) => p.originalName)).toEqual(['IMG_2.jpg', 'img_9.jpg', 'IMG_10.jpg', 'IMG_100.jpg']);
      expect(staffPhotos.map(({ id }) => id)).toEqual(photos.map(({ id }) => id));
    });
  });

  describe('DELETE /api/photos/bulk-delete', () => {
    it('401, 403, then 400 naming photoIds', async () => {
      expect((await anonymous.delete('/api/photos/bulk-delete', { photoIds: [1] })).status).toBe(401);
      expect((await customer.delete('/api/photos/bulk-delete', { photoIds: [1] })).status).toBe(403);
      // Admins only (docs/accounts.md, "What a photographer may not do").
      const refused = await photographer.delete('/api/photos/bulk-delete', { photoIds: [1] });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('ADMIN_ONLY');
      const res = await admin.delete('/api/photos/bulk-delete', { photoIds: [] });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: MSG.photoIdsRequired, errors: { photoIds: MSG.photoIdsRequired } });
    });

    it('deletes the rows and their files, ignoring unknown ids', async () => {
      const { albumId } = await insertSchoolAndAlbum(server);
      const files = await Promise.all(['a1.jpg', 'a2.jpg', 'a3.jpg'].map(async (name) => ({ name, bytes: await solidJpeg(60, 40) })));
      const upload = await photographer.post('/api/photos/upload-batch', photoForm(files, { albumId: String(albumId) }));
      const [first, second, third] = (upload.body as { photos: { id: number }[] }).photos.sort((a, b) => a.id - b.id);
      const keys = Object.fromEntries((await rowsOf(albumId)).map((r) => [r.id, r.storage_key as string]));

      const res = await admin.delete('/api/photos/bulk-delete', { photoIds: [first?.id, second?.id, 999999] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ deletedCount: 2 });
      expect((await rowsOf(albumId)).map((r) => r.id)).toEqual([third?.id]);
      const disk = await storageFiles(server);
      for (const id of [first?.id, second?.id]) expect(disk.some((f) => f.includes(keys[id ?? 0] ?? '?'))).toBe(false);
      // The original and its three renditions (thumbnail, small thumbnail, preview).
      expect(disk.filter((f) => f.includes(keys[third?.id ?? 0] ?? '?'))).toHaveLength(4);
    });
  });
});
