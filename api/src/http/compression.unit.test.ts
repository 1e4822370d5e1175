import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_AT_ONCE_MAX_BYTES, COMPRESS_THRESHOLD_BYTES, compression } from './compression';
import type { AppState } from './context';

/** Rows of a JSON answer of about `bytes` bytes, not one repeated string (which compresses to nothing). */
const rows = (bytes: number) => Array.from({ length: Math.ceil(bytes / 60) }, (_, i) => ({ id: i, name: `Learner ${i * 7919}`, code: (i * 2654435761).toString(36) }));
const page = (bytes: number) => `<!doctype html><p>${Array.from({ length: Math.ceil(bytes / 12) }, (_, i) => `n${(i * 40503).toString(36)}`).join(' ')}</p>`;

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const BROWSER = { 'Accept-Encoding': 'gzip, deflate, br, zstd' };

describe('compressing answers', () => {
  let server: http.Server;
  let url: string;

  beforeAll(async () => {
    const app = new Koa<AppState>();
    app.use(compression());
    app.use(async (ctx) => {
      const size = Number(ctx.query.size ?? 0);
      switch (ctx.path) {
        case '/json':
          ctx.body = rows(size);
          break;
        case '/html':
          ctx.body = page(size);
          break;
        case '/buffer':
          ctx.type = 'text/plain';
          ctx.body = Buffer.from(page(size));
          break;
        case '/stream':
          ctx.type = 'application/json';
          ctx.body = Readable.from([JSON.stringify(rows(size))]);
          break;
        case '/no-transform':
          ctx.set('Cache-Control', 'no-transform');
          ctx.body = rows(size);
          break;
        case '/opted-out':
          ctx.compress = false;
          ctx.body = rows(size);
          break;
        case '/image':
          ctx.type = 'image/webp';
          ctx.body = Buffer.alloc(size, 7);
          break;
        case '/api/images/1/thumbnail':
          ctx.type = 'application/json';
          ctx.body = rows(size);
          break;
        default:
          ctx.status = 204;
      }
    });
    server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  /** A request whose answer is read as the bytes on the wire, never decoded by the client. */
  const raw = (path: string, headers: Record<string, string> = BROWSER, method = 'GET'): Promise<Raw> =>
    new Promise((resolve, reject) => {
      http
        .request(`${url}${path}`, { method, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        })
        .on('error', reject)
        .end();
    });

  const decoded = (res: Raw) =>
    (res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.body) : res.headers['content-encoding'] === 'gzip' ? gunzipSync(res.body) : res.body).toString();

  it('compresses a JSON answer at once with brotli, sent with its length, the same JSON inside', async () => {
    const res = await raw('/json?size=8000');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    // Compressed at once: the length is known, nothing is sent in chunks.
    expect(res.headers['transfer-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(JSON.parse(decoded(res))).toEqual(rows(8000));
    expect(res.body.length).toBeLessThan(JSON.stringify(rows(8000)).length / 2);
  });

  it('gives gzip to a client that takes gzip and not brotli, and nothing to one that takes neither', async () => {
    const gz = await raw('/json?size=8000', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Number(gz.headers['content-length'])).toBe(gz.body.length);
    expect(JSON.parse(decoded(gz))).toEqual(rows(8000));
    const refused = await raw('/json?size=8000', { 'Accept-Encoding': 'br;q=0, gzip' });
    expect(refused.headers['content-encoding']).toBe('gzip');
    // A client that accepts both gets brotli, whatever weights it gives them (docs/operations.md, "Compressing answers").
    expect((await raw('/json?size=8000', { 'Accept-Encoding': 'br;q=0.5, gzip' })).headers['content-encoding']).toBe('br');
    for (const headers of [{}, { 'Accept-Encoding': 'identity' }, { 'Accept-Encoding': 'br;q=0, gzip;q=0' }] as Record<string, string>[]) {
      const plain = await raw('/json?size=8000', headers);
      expect(plain.headers['content-encoding'], JSON.stringify(headers)).toBeUndefined();
      expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
      expect(JSON.parse(plain.body.toString())).toEqual(rows(8000));
    }
  });

  it('compresses pages and text held in memory, keeping their types', async () => {
    const html = await raw('/html?size=6000');
    expect(html.headers['content-encoding']).toBe('br');
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(decoded(html)).toBe(page(6000));
    const text = await raw('/buffer?size=6000');
    expect(text.headers['content-encoding']).toBe('br');
    expect(text.headers['content-type']).toMatch(/^text\/plain/);
    expect(decoded(text)).toBe(page(6000));
  });

  it('leaves answers under the threshold as they are', async () => {
    const res = await raw('/json?size=200');
    expect(JSON.stringify(rows(200)).length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(JSON.parse(res.body.toString())).toEqual(rows(200));
  });

  it('compresses streams and answers too large to compress at once as they flow', async () => {
    const large = COMPRESS_AT_ONCE_MAX_BYTES * 3;
    for (const path of [`/json?size=${large}`, `/html?size=${large}`, '/stream?size=8000']) {
      const res = await raw(path);
      expect(res.headers['content-encoding'], path).toBe('br');
      expect(res.headers['transfer-encoding'], path).toBe('chunked');
      expect(res.headers.vary, path).toMatch(/Accept-Encoding/i);
    }
    expect(JSON.parse(decoded(await raw(`/json?size=${large}`)))).toEqual(rows(large));
    expect(JSON.parse(decoded(await raw('/stream?size=8000')))).toEqual(rows(8000));
  });

  it('never compresses what must not be: HEAD, no-transform, opted out, images, no body', async () => {
    const head = await raw('/json?size=8000', BROWSER, 'HEAD');
    expect(head.headers['content-encoding']).toBeUndefined();
    for (const path of ['/no-transform?size=8000', '/opted-out?size=8000', '/image?size=8000', '/api/images/1/thumbnail?size=8000']) {
      const res = await raw(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-encoding'], path).toBeUndefined();
    }
    const empty = await raw('/nothing');
    expect(empty.status).toBe(204);
    expect(empty.headers['content-encoding']).toBeUndefined();
  });
});
