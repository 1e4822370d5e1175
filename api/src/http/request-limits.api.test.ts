import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARDENING_MSG, MSG } from '../../contract/messages';
import { UPLOAD_MAX_FILE_BYTES } from '../../contract/constants';
import type { Client} from '../../test/harness';
import { describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { sendBeforeReading, streamBody } from '../../test/raw-http';
import { insertSchoolAndAlbum } from '../photos/photos.test-helpers';

const MB = 1024 * 1024;
const BOUNDARY = 'limitsBoundary';

function filePreamble(albumId: number, name = 'huge.jpg'): Buffer {
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="albumId"\r\n\r\n${albumId}\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="photos"; filename="${name}"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff`,
    'latin1',
  );
}

/** Eleven 9 MB files, sent chunked: no declared length, so the cap must be enforced while counting. */
function manyFiles(albumId: number, count: number, size: number): Buffer {
  const parts = [Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="albumId"\r\n\r\n${albumId}\r\n`)];
  for (let i = 0; i < count; i++) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="photos"; filename="IMG_${i}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`));
    parts.push(Buffer.alloc(size, 0x42));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

/** Limits enforced while the bytes arrive, and a request refused early stops being read. */
describeApi('request limits while streaming', () => {
  let server: TestServer;
  let staff: Client;
  let albumId: number;
  const tmpEntries = () => fs.readdir(server.runtime.media.tmpDir).catch(() => []);

  beforeAll(async () => {
    server = await startTestServer({ REQUEST_BODY_TIMEOUT_MS: '1000' });
    staff = await staffClient(server, 'photographer');
    albumId = (await insertSchoolAndAlbum(server)).albumId;
  });
  afterAll(() => server?.close());

  const multipart = (extra: Record<string, string> = {}) => ({ 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...extra });

  it('an anonymous 2 GB upload is refused (401) without reading it', async () => {
    const res = await streamBody(server.url, '/api/photos/upload-batch', {
      headers: multipart({ 'content-length': String(2 * 1024 * MB) }),
      head: filePreamble(albumId),
      total: 2 * 1024 * MB,
      giveUpAfter: 600 * MB,
    });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toMatchObject({ message: MSG.authRequired });
    expect(res.headers.connection).toBe('close');
    expect(res.bytesWritten).toBeLessThan(100 * MB);
  });

  it('a declared size over one batch is refused (413) before reading', async () => {
    const res = await streamBody(server.url, '/api/photos/upload-batch', {
      headers: multipart({ 'content-length': String(2 * 1024 * MB), authorization: `Bearer ${staff.token}` }),
      head: filePreamble(albumId),
      total: 2 * 1024 * MB,
      giveUpAfter: 600 * MB,
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({ message: HARDENING_MSG.uploadTooLarge });
    expect(res.bytesWritten).toBeLessThan(100 * MB);
    expect(await tmpEntries()).toEqual([]);
  });

  it('a 60 MB file is refused (413) once it passes 10 MB, not after it streamed to disk', async () => {
    const total = 60 * MB;
    const res = await streamBody(server.url, '/api/photos/upload-batch', {
      headers: multipart({ 'content-length': String(total), authorization: `Bearer ${staff.token}` }),
      head: filePreamble(albumId, 'big.jpg'),
      total,
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({ message: MSG.fileTooLarge('big.jpg') });
    // Answered once the file crossed the limit: far from the 60 MB the client meant to send.
    expect(res.bytesAtAnswer).toBeLessThan(UPLOAD_MAX_FILE_BYTES + 20 * MB);
    expect(res.bytesWritten).toBeLessThan(total);
    expect(await tmpEntries()).toEqual([]);
  });

  it('a chunked upload over the limit gets its 413 even when the client reads it only after seconds of sending', async () => {
    // About 4 MB/s: the file passes 10 MB after some 2.5 s, the client looks at the answer at 4 s.
    // Closing at once would reset the connection and the client's TCP stack would drop the answer.
    const { received, error } = await sendBeforeReading(server.url, '/api/photos/upload-batch', {
      headers: multipart({ authorization: `Bearer ${staff.token}` }),
      head: filePreamble(albumId, 'IMG_9999.JPG'),
      sendForMs: 4_000,
      paceMs: 15,
    });
    expect(received, `nothing readable (${error ?? 'no error'})`).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toContain('Connection: close');
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)).message).toBe(MSG.fileTooLarge('IMG_9999.JPG'));
    expect(await server.runtime.knex('photos').where({ album_id: albumId })).toEqual([]);
  });

  it('a chunked request with more than one batch of files is refused while streaming', async () => {
    const body = manyFiles(albumId, 12, 9 * MB);
    const res = await streamBody(server.url, '/api/photos/upload-batch', {
      headers: multipart({ 'transfer-encoding': 'chunked', authorization: `Bearer ${staff.token}` }),
      head: body,
      total: body.length,
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text).message).toBe(HARDENING_MSG.tooManyFilesPerRequest);
    expect(res.bytesWritten).toBeLessThan(body.length);
    expect(await server.runtime.knex('photos').where({ album_id: albumId })).toEqual([]);
    expect(await tmpEntries()).toEqual([]);
  });

  describe('slow bodies', () => {
    it('a JSON body trickling one byte at a time is cut with 408 long before it completes', async () => {
      const res = await streamBody(server.url, '/api/auth/login', {
        headers: { 'content-type': 'application/json', 'content-length': '200' },
        total: 200,
        chunk: 1,
        paceMs: 150,
      });
      expect(res.status).toBe(408);
      expect(JSON.parse(res.text)).toEqual({ message: HARDENING_MSG.bodyTimeout, code: 'BODY_TIMEOUT', requestId: res.headers['x-request-id'] });
      expect(res.headers.connection).toBe('close');
      expect(res.bytesAtAnswer).toBeLessThan(200);
    });

    it('an upload trickling one byte at a time is cut with 408 and leaves no temp files', async () => {
      const head = filePreamble(albumId, 'slow.jpg');
      const res = await streamBody(server.url, '/api/photos/upload-batch', {
        headers: multipart({ 'content-length': String(head.length + 300), authorization: `Bearer ${staff.token}` }),
        head,
        total: head.length + 300,
        chunk: 1,
        paceMs: 5,
      });
      expect(res.status).toBe(408);
      expect(JSON.parse(res.text).code).toBe('BODY_TIMEOUT');
      expect(res.bytesAtAnswer).toBeLessThan(head.length + 300);
      expect(await tmpEntries()).toEqual([]);
    });

    it('a roster CSV trickling one byte at a time is cut with 408 and imports nothing', async () => {
      const res = await streamBody(server.url, `/api/albums/${albumId}/students`, {
        headers: { 'content-type': 'text/csv', 'content-length': '300', authorization: `Bearer ${staff.token}` },
        total: 300,
        chunk: 1,
        paceMs: 150,
      });
      expect(res.status).toBe(408);
      expect(JSON.parse(res.text).code).toBe('BODY_TIMEOUT');
      expect(res.bytesAtAnswer).toBeLessThan(300);
      expect(await server.runtime.knex('students').where({ album_id: albumId })).toEqual([]);
    });

    it('a body that keeps coming at a normal pace is not cut', async () => {
      const res = await streamBody(server.url, '/api/auth/login', {
        headers: { 'content-type': 'application/json', 'content-length': String(20_000) },
        head: Buffer.from(JSON.stringify({ email: 'someone@example.test', password: 'wrong-password', pad: 'x'.repeat(20_000 - 70) }).padEnd(20_000, ' ')),
        total: 20_000,
        chunk: 5000,
        paceMs: 300,
      });
      expect(res.status).toBe(401);
    });
  });
});
