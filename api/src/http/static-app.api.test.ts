import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUSINESS_NAME_PLACEHOLDER, BUSINESS_SHORT_NAME_PLACEHOLDER } from '../../contract/brand';
import { MSG, STATIC_MSG } from '../../contract/messages';
import { describeApi, grantCookie, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { solidJpeg } from '../../test/images';
import { insertSchoolAndAlbum, photoForm } from '../photos/photos.test-helpers';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as sent, never decoded. */
  body: Buffer;
}

/** A plain HTTP GET that shows the body exactly as it came over the wire. */
function rawGet(base: string, url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${url}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (res: Raw) =>
  res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.body) : res.headers['content-encoding'] === 'gzip' ? gunzipSync(res.body) : res.body;

const BR = { 'Accept-Encoding': 'gzip, deflate, br, zstd' };
const NAME = 'Kagiso & Sons <Photos>';
const SCRIPT = `export const rows = [${Array.from({ length: 300 }, (_, i) => `{ id: ${i} }`).join(',')}];\n`;

/** A miniature build: the pages with their placeholders, hashed assets with their variants. */
async function writeDist(dir: string): Promise<void> {
  const page = (root: string) =>
    `<!doctype html><html><head><title>${BUSINESS_NAME_PLACEHOLDER}</title><meta name="business-name" content="${BUSINESS_NAME_PLACEHOLDER}">` +
    `<meta name="apple-mobile-web-app-title" content="${BUSINESS_SHORT_NAME_PLACEHOLDER}"><link rel="manifest" href="/manifest.webmanifest"></head>` +
    `<body>${root}<footer>© ${BUSINESS_NAME_PLACEHOLDER}</footer></body></html>`;
  await fs.mkdir(path.join(dir, 'assets'), { recursive: true });
  await fs.mkdir(path.join(dir, '.vite'), { recursive: true });
  await fs.writeFile(path.join(dir, 'index.html'), page('<div id="root" data-prerendered="/"><h1>Professional School Photography</h1></div>'));
  await fs.writeFile(path.join(dir, 'how-it-works.html'), page('<div id="root" data-prerendered="/how-it-works"><h1>How It Works</h1></div>'));
  await fs.writeFile(path.join(dir, 'app-shell.html'), page('<div id="root"></div>'));
  await fs.writeFile(
    path.join(dir, 'manifest.webmanifest'),
    JSON.stringify({ name: BUSINESS_NAME_PLACEHOLDER, short_name: BUSINESS_SHORT_NAME_PLACEHOLDER, start_url: '/' }),
  );
  const asset = path.join(dir, 'assets', 'index-Ab12Cd34.js');
  await fs.writeFile(asset, SCRIPT);
  await fs.writeFile(`${asset}.br`, brotliCompressSync(SCRIPT));
  await fs.writeFile(`${asset}.gz`, gzipSync(SCRIPT));
  await fs.writeFile(path.join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  await fs.writeFile(path.join(dir, 'favicon.png'), await solidJpeg(16, 16));
  await fs.writeFile(path.join(dir, '.vite', 'manifest.json'), '{}');
}

describeApi('serving the app and compressing answers', () => {
  let server: TestServer;
  let dist: string;

  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'photos-dist-'));
    await writeDist(dist);
    server = await startTestServer({ BUSINESS_NAME: NAME }, { appDir: dist });
  });
  afterAll(async () => {
    await server?.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  describe('pages', () => {
    it('fills in BUSINESS_NAME, escaped, in the page, its title and meta tag', async () => {
      const res = await rawGet(server.url, '/', BR);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      const html = decode(res).toString('utf8');
      expect(html).toContain('<title>Kagiso &#38; Sons &#60;Photos&#62;</title>');
      expect(html).toContain('<meta name="business-name" content="Kagiso &#38; Sons &#60;Photos&#62;">');
      // The home screen label: the configured name's leading words within 12 characters.
      expect(html).toContain('<meta name="apple-mobile-web-app-title" content="Kagiso">');
      expect(html).not.toContain('__BUSINESS');
      expect(html).toContain('data-prerendered="/"');
    });

    it('sends brotli, else gzip, else identity, only as asked, with Vary and revalidation', async () => {
      const br = await rawGet(server.url, '/', BR);
      expect(br.headers['content-encoding']).toBe('br');
      const gz = await rawGet(server.url, '/', { 'Accept-Encoding': 'gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      const plain = await rawGet(server.url, '/');
      expect(plain.headers['content-encoding']).toBeUndefined();
      const refused = await rawGet(server.url, '/', { 'Accept-Encoding': 'br;q=0, gzip;q=0' });
      expect(refused.headers['content-encoding']).toBeUndefined();
      for (const res of [br, gz, plain]) {
        expect(res.headers.vary).toMatch(/Accept-Encoding/i);
        expect(res.headers['cache-control']).toBe('no-cache');
        expect(decode(res).equals(plain.body)).toBe(true);
      }
      expect(br.body.length).toBeLessThan(plain.body.length);
      // Each encoding is its own representation with its own validator.
      expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(3);
      const again = await rawGet(server.url, '/', { ...BR, 'If-None-Match': br.headers.etag! });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
    });

    it('serves how-it-works its own page, client routes the app shell, and HEAD without a body', async () => {
      expect(decode(await rawGet(server.url, '/how-it-works', BR)).toString()).toContain('data-prerendered="/how-it-works"');
      for (const route of ['/school/demo-primary', '/checkout', '/customer/orders']) {
        const res = await rawGet(server.url, route, BR);
        expect(res.status).toBe(200);
        const html = decode(res).toString();
        expect(html).toContain('<div id="root"></div>');
        expect(html).toContain(NAME.replace('&', '&#38;').replace('<', '&#60;').replace('>', '&#62;'));
      }
      const head = await rawGet(server.url, '/', BR, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
    });

    it('puts the name into the web app manifest as JSON', async () => {
      const res = await rawGet(server.url, '/manifest.webmanifest', BR);
      expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
      // The launcher label fits a home screen: the name's leading words within 12 characters.
      expect(JSON.parse(decode(res).toString())).toEqual({ name: NAME, short_name: 'Kagiso', start_url: '/' });
    });
  });

  describe('assets', () => {
    it('sends the precompressed file as it is, immutable, only to a client that asked', async () => {
      const br = await rawGet(server.url, '/assets/index-Ab12Cd34.js', BR);
      expect(br.status).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toMatch(/javascript/);
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.headers.vary).toMatch(/Accept-Encoding/i);
      expect(br.body.equals(await fs.readFile(path.join(dist, 'assets', 'index-Ab12Cd34.js.br')))).toBe(true);
      expect(Number(br.headers['content-length'])).toBe(br.body.length);

      const gz = await rawGet(server.url, '/assets/index-Ab12Cd34.js', { 'Accept-Encoding': 'gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).toString()).toBe(SCRIPT);

      const plain = await rawGet(server.url, '/assets/index-Ab12Cd34.js');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(SCRIPT);
    });

    it('answers HEAD with the headers of GET and no body', async () => {
      const head = await rawGet(server.url, '/assets/index-Ab12Cd34.js', BR, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.headers['content-encoding']).toBe('br');
      expect(Number(head.headers['content-length'])).toBe((await fs.stat(path.join(dist, 'assets', 'index-Ab12Cd34.js.br'))).size);
      expect(head.body.length).toBe(0);
    });

    it('revalidates the service worker and answers 304 when unchanged', async () => {
      const res = await rawGet(server.url, '/sw.js', BR);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      const again = await rawGet(server.url, '/sw.js', { 'If-Modified-Since': res.headers['last-modified']! });
      expect(again.status).toBe(304);
    });

    it('never compresses images', async () => {
      const res = await rawGet(server.url, '/favicon.png', BR);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body.equals(await fs.readFile(path.join(dist, 'favicon.png')))).toBe(true);
    });

    it('404 JSON for a missing file and for build metadata; 400 JSON for a malformed path', async () => {
      for (const url of ['/assets/missing-Ab12Cd34.js', '/.vite/manifest.json', '/nothing.png']) {
        const res = await rawGet(server.url, url, BR);
        expect(res.status, url).toBe(404);
        expect(JSON.parse(res.body.toString())).toMatchObject({ message: MSG.notFound });
      }
      for (const url of ['/%E0%A4%A', '/assets/%E0%A4%A.js', '/school/%ZZ']) {
        const res = await rawGet(server.url, url, BR);
        expect(res.status, url).toBe(400);
        expect(res.headers['content-type']).toMatch(/application\/json/);
        expect(JSON.parse(res.body.toString())).toMatchObject({ message: STATIC_MSG.badPath });
      }
    });

    it('never lets /api/ or /payweb3/ fall through to the app', async () => {
      const api = await rawGet(server.url, '/api/nothing-here', BR);
      expect(api.status).toBe(404);
      expect(api.headers['content-type']).toMatch(/application\/json/);
      expect((await rawGet(server.url, '/payweb3/nothing', BR)).headers['content-type'] ?? '').not.toMatch(/html/);
    });
  });

  describe('API answers', () => {
    it('compresses a large JSON answer on the fly with brotli and keeps no-store', async () => {
      const { knex } = server.runtime;
      for (let i = 0; i < 40; i++) await insertSchoolAndAlbum(server);
      const plain = await rawGet(server.url, '/api/schools');
      expect(plain.body.length).toBeGreaterThan(1024);
      expect(plain.headers['content-encoding']).toBeUndefined();
      const br = await rawGet(server.url, '/api/schools', BR);
      expect(br.status).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toMatch(/Accept-Encoding/i);
      expect(br.headers['cache-control']).toMatch(/\bno-store\b/);
      expect(br.body.length).toBeLessThan(plain.body.length / 2);
      expect(JSON.parse(decode(br).toString())).toEqual(JSON.parse(plain.body.toString()));
      const gz = await rawGet(server.url, '/api/schools', { 'Accept-Encoding': 'gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(await knex('schools').count({ n: '*' }).first()).toBeTruthy();
    });

    it('leaves small answers alone', async () => {
      const res = await rawGet(server.url, '/api/health', BR);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(res.body.toString())).toEqual({ status: 'ok', database: 'ok', storage: 'ok', redis: 'not configured' });
    });

    it('never compresses photos', async () => {
      const staff = await staffClient(server, 'photographer');
      const { schoolId, albumId } = await insertSchoolAndAlbum(server);
      const upload = await staff.post('/api/photos/upload-batch', photoForm([{ name: 'IMG_0001.JPG', bytes: await solidJpeg(1600, 1200) }], { albumId: String(albumId) }));
      expect(upload.status).toBe(201);
      const id = upload.body.photos[0].id as number;
      const cookie = { Cookie: grantCookie(server, { schools: [schoolId] }) };
      for (const url of [`/api/images/${id}/thumbnail`, `/api/images/${id}/watermarked`]) {
        const res = await rawGet(server.url, url, { ...BR, ...cookie });
        expect(res.status, url).toBe(200);
        expect(res.headers['content-type']).toBe('image/webp');
        expect(res.headers['content-encoding'], url).toBeUndefined();
        expect(res.body.subarray(8, 12).toString()).toBe('WEBP');
      }
    });
  });
});
