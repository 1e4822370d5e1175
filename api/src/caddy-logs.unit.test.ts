/**
 * The production proxy's access log (deploy/Caddyfile) keeps no secret a URL carries: no query
 * string, no digital-copy token, no flyer code, no Referer (docs/access.md, "What the logs keep").
 * Debian's Caddy runs the real Caddyfile in front of a bare upstream, and its log lines are read.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/harness';

const ROOT = path.resolve(import.meta.dirname, '../..');
const hasCaddy = spawnSync('caddy', ['version']).status === 0;
if (!hasCaddy) {
  if (process.env.CI === 'true') throw new Error('Caddy is missing; CI installs Debian\'s caddy package (.ci/run).');
  console.warn(`\n${'!'.repeat(78)}\n!! SKIPPING the Caddy access-log test: no caddy on PATH (apt-get install caddy)\n${'!'.repeat(78)}\n`);
}

(hasCaddy ? describe : describe.skip)('the proxy access log', () => {
  let upstream: http.Server;
  let caddy: ChildProcess;
  let dir: string;
  let base: string;
  let log = '';

  beforeAll(async () => {
    upstream = http.createServer((_req, res) => res.end('ok'));
    const upstreamPort = await freePort();
    await new Promise<void>((resolve) => upstream.listen(upstreamPort, '127.0.0.1', resolve));
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'caddy-'));
    // The deployed file as it is; only the admin endpoint is switched off, so runs do not collide on :2019.
    const config = path.join(dir, 'Caddyfile');
    await fs.writeFile(config, `{\n\tadmin off\n}\n\n${await fs.readFile(path.join(ROOT, 'deploy/Caddyfile'), 'utf8')}`);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    caddy = spawn('caddy', ['run', '--config', config, '--adapter', 'caddyfile'], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir, SITE_ADDRESS: `:${port}`, APP_UPSTREAMS: `127.0.0.1:${upstreamPort}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    caddy.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    caddy.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const deadline = Date.now() + 20_000;
    for (;;) {
      const ok = await fetch(`${base}/api/health`).then((res) => res.ok, () => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`Caddy did not start:\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 30_000);

  afterAll(async () => {
    caddy?.kill();
    await new Promise<void>((resolve) => upstream?.close(() => resolve()));
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('drops query strings, download tokens, flyer codes, short links and the Referer', async () => {
    const requests: [string, Record<string, string>][] = [
      ['/code/SECRETCODE1', {}],
      ['/api/downloads/eyJSECRETTOKEN2.payload.sig', {}],
      ['/reset-password?token=SECRETRESET3', {}],
      ['/api/print-batches/3/files.zip?token=SECRETBATCH4', {}],
      ['/api/orders', { Referer: 'https://photos.example.bw/reset-password?token=SECRETREFERER5' }],
      ['/s/SECRETLINK6', {}],
    ];
    for (const [url, headers] of requests) expect((await fetch(`${base}${url}`, { headers })).status).toBe(200);
    const uris = async () =>
      log
        .split('\n')
        .filter((line) => line.includes('"handled request"'))
        .map((line) => (JSON.parse(line) as { request: { uri: string } }).request.uri);
    const deadline = Date.now() + 10_000;
    while ((await uris()).filter((uri) => uri !== '/api/health').length < requests.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const logged = (await uris()).filter((uri) => uri !== '/api/health');
    expect(logged).toEqual(['/code/', '/api/downloads/', '/reset-password', '/api/print-batches/3/files.zip', '/api/orders', '/s/']);
    expect(log).not.toMatch(/SECRET/);
  });
});
