import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TEST_DB, describeApi, freePort } from '../test/harness';
import { freshDatabase, startServer, waitForHealth, type FreshDatabase, type Run } from '../test/processes';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * The server as `npm start` and the image run it: plain node on dist/ (docs/operations.md, "The
 * compiled server"). The CI's checks build dist/ and pwa/dist just before the suites, so the build
 * here finds both up to date; on a fresh checkout it builds them once.
 */
describeApi('the compiled server', () => {
  let db: FreshDatabase;
  let url: string;
  let server: ReturnType<typeof startServer>;

  beforeAll(async () => {
    const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/ensure-built.ts'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('building the PWA and the server failed');
    db = await freshDatabase('photos-compiled-');
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    server = startServer(
      {
        NODE_ENV: 'development',
        PORT: String(port),
        PUBLIC_URL: url,
        DATABASE_URL: db.databaseUrl,
        DATA_DIR: db.dir,
        STORAGE_DIR: path.join(db.dir, 'storage'),
        // The demo (48 photos through sharp) once, on the embedded default `npm start` uses; the
        // migrations run on both databases.
        SEED_DEMO: TEST_DB === 'sqlite' ? 'true' : 'false',
        LOG_LEVEL: 'info',
      },
      { compiled: true },
    );
    await waitForHealth(url, server.exited);
  }, 300_000);

  afterAll(async () => {
    server.child.kill('SIGTERM');
    const exit: Run = await server.exited;
    await db.drop();
    expect(exit.code).toBe(0);
  });

  it(`migrates${TEST_DB === 'sqlite' ? ' and seeds the demo' : ''}, answers /api/health and serves the PWA`, async () => {
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', database: 'ok', storage: 'ok' });

    const schools = await fetch(`${url}/api/schools`);
    expect(schools.status).toBe(200);
    const names = ((await schools.json()) as { name: string }[]).map((school) => school.name);
    if (TEST_DB === 'sqlite') expect(names).toContain('Demo Primary School');
    else expect(names).toEqual([]);

    const home = await fetch(url);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toContain('text/html');
    expect(await home.text()).toMatch(/<script type="module"[^>]* src="\/assets\/[^"]+\.js"/);
  });

  it('writes JSON to a pipe, and an error answer carries the request id of its header and its log line', async () => {
    const res = await fetch(`${url}/api/no-such-thing`);
    expect(res.status).toBe(404);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(((await res.json()) as { requestId?: string }).requestId).toBe(requestId);

    // The summary line is written when the answer is ready; give the pipe a moment.
    const deadline = Date.now() + 5_000;
    let line: Record<string, unknown> | undefined;
    while (!line && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const entries = server
        .output()
        .split('\n')
        .filter((text) => text.startsWith('{'))
        .map((text) => JSON.parse(text) as Record<string, unknown>);
      line = entries.find((entry) => entry.requestId === requestId);
    }
    expect(line).toMatchObject({ requestId, method: 'GET', path: '/api/no-such-thing', status: 404, level: 30 });
    expect(line?.msg).toMatch(/^GET \/api\/no-such-thing 404 \d+ ms$/);
  });
});
