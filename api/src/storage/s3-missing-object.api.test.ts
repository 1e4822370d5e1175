/**
 * Without s3:ListBucket, S3 answers a missing object with 403 AccessDenied (a HEAD with a bare
 * 403), so that a caller cannot learn which keys exist. A proxy in front of the in-process S3
 * server (s3rver) answers exactly so; the app must still call such an object missing: a JSON 404
 * for an image, "missing" in the originals check, not a 500.
 */
import http from 'node:http';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MSG } from '../../contract/messages';
import { Client, describeS3, freePort, grantCookie, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { startS3Server, type S3TestServer } from '../../test/s3';
import { insertSchoolAndAlbum, photoForm } from '../photos/photos.test-helpers';
import { solidJpeg } from '../../test/images';
import { objectKey } from '../media/storage';

const ACCESS_DENIED = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message><RequestId>TEST</RequestId></Error>';

/** Forwards to the S3 server; an object's 404 on GET or HEAD becomes AWS's 403 for a caller without s3:ListBucket. */
function withoutListBucket(target: string, port: number): Promise<http.Server> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const objectRead = (req.method === 'GET' || req.method === 'HEAD') && /^\/[^/?]+\/[^?]+/.test(req.url ?? '');
      if (objectRead && answer.statusCode === 404) {
        answer.resume();
        res.writeHead(403, { 'Content-Type': 'application/xml' });
        res.end(req.method === 'HEAD' ? undefined : ACCESS_DENIED);
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

describeS3('a missing object in a bucket the app may not list', () => {
  let s3: S3TestServer;
  let proxy: http.Server;
  let server: TestServer;
  let staff: Client;
  const prefix = 'photos';

  beforeAll(async () => {
    s3 = await startS3Server();
    const port = await freePort();
    proxy = await withoutListBucket(s3.endpoint, port);
    server = await startTestServer({ ...s3.env(prefix), S3_ENDPOINT: `http://127.0.0.1:${port}` });
    staff = await staffClient(server, 'photographer');
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => proxy?.close(resolve));
    await s3?.close();
  });

  it('is a 404 for an image and "missing" for an original, never a 500', async () => {
    const { schoolId, albumId } = await insertSchoolAndAlbum(server);
    const upload = await staff.post('/api/photos/upload-batch', photoForm([{ name: 'IMG_0701.JPG', bytes: await solidJpeg(900, 600, '#2a6f97') }], { albumId: String(albumId) }));
    expect(upload.status).toBe(201);
    const id = upload.body.photos[0].id as number;
    const row = await server.runtime.knex('photos').where({ id }).first('storage_key');
    const cookie = { Cookie: grantCookie(server, { schools: [schoolId] }) };
    const parent = new Client(server.url);
    // The thumbnail is served; the preview, not read yet, is not in this process's memory
    // (docs/images.md, "Serving images"), so its loss shows at once.
    expect((await parent.get(`/api/images/${id}/thumbnail`, cookie)).status).toBe(200);

    for (const [folder, ext] of [['previews', 'webp'], ['originals', 'jpg']] as const) {
      await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: `${prefix}/${objectKey(folder, row.storage_key, ext)}` }));
    }
    const gone = await parent.get(`/api/images/${id}/watermarked`, cookie);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ message: MSG.imageNotFound });
    const missing = await staff.get('/api/photos/missing');
    expect(missing.status).toBe(200);
    expect((missing.body.missingPhotos as { id: number }[]).map((photo) => photo.id)).toContain(id);
  });
});
