import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, describeApi, freePort, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { createShop, orderBody, parentFor, payThroughSandbox, standardLines, waitUntil, type Shop } from '../../test/shop';
import { solidJpeg, truncatedJpeg } from '../../test/images';
import { parseExposition, type Exposition } from '../../test/prometheus';
import { startMailCatcher, type MailCatcher } from '../../test/mail-catcher';
import { freshDatabase, startServer, waitForHealth, type FreshDatabase } from '../../test/processes';
import { photoForm } from '../photos/photos.test-helpers';
import { createCustomer } from '../../test/fixtures';
import { METRICS_MSG, MSG } from '../../contract/messages';
import os from 'node:os';
import { listenMetrics } from './http';
import { loadConfig } from '../config';

const TOKEN = 'metrics-token-for-tests-0123456789';

/** Scrapes the main port with the token and parses the answer strictly. */
async function scrape(server: TestServer): Promise<Exposition> {
  const res = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  return parseExposition(await res.text());
}

/** docs/operations.md, "Metrics". */
describeApi('metrics', () => {
  let server: TestServer;
  let other: TestServer;
  let catcher: MailCatcher;
  let shop: Shop;
  /** Every private value the journey below sends: none may appear in a label. */
  const secrets: string[] = [];

  beforeAll(async () => {
    // Mail to this address is refused for good, so a failed e-mail can be counted.
    catcher = await startMailCatcher({ refuse: (message) => (message.to.some((to) => to.startsWith('bounce-')) ? { code: 550, text: 'no such user' } : null) });
    server = await startTestServer({ METRICS_TOKEN: TOKEN, SMTP_URL: catcher.url, OUTBOX_POLL_MS: '100' });
    other = await startTestServer();
    shop = await createShop(server);
  });
  afterAll(async () => {
    await other?.close();
    await server?.close();
    await catcher?.close();
  });

  describe('GET /metrics on the main port', () => {
    it('is a 404 when METRICS_TOKEN is not set', async () => {
      const res = await new Client(other.url).get('/metrics', { Authorization: `Bearer ${TOKEN}` });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: MSG.notFound, code: 'NOT_FOUND', requestId: res.headers.get('x-request-id') });
    });

    it('wants the token: none or a wrong one is a 401', async () => {
      const anon = new Client(server.url);
      for (const headers of [{} as Record<string, string>, { Authorization: 'Bearer wrong-token-of-some-length' }, { Authorization: `Basic ${TOKEN}` }, { Authorization: `Bearer ${TOKEN}x` }]) {
        const res = await anon.get('/metrics', headers);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ message: METRICS_MSG.tokenRequired, code: 'METRICS_TOKEN_REQUIRED', requestId: res.headers.get('x-request-id') });
        expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      }
    });

    it('answers the Prometheus text format with the process metrics, uncached', async () => {
      const res = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const metrics = parseExposition(await res.text());
      expect(metrics.types.get('process_cpu_user_seconds_total')).toBe('counter');
      expect(metrics.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
      expect(metrics.types.get('http_request_duration_seconds')).toBe('histogram');
      expect(metrics.sum('process_resident_memory_bytes')).toBeGreaterThan(0);
      // The fixed outcomes exist from the start, at zero.
      expect(metrics.sum('payments_total', { outcome: 'completed' })).toBe(0);
      expect(metrics.sum('outbox_emails_total', { event: 'failed', kind: 'order_confirmation' })).toBe(0);
    });

    it('reads the database pool and the outbox at each scrape', async () => {
      const metrics = await scrape(server);
      expect(metrics.sum('db_pool_max_connections')).toBe(server.runtime.dialect === 'sqlite' ? 1 : 10);
      for (const state of ['used', 'free', 'pending']) expect(metrics.sum('db_pool_connections', { state })).toBeGreaterThanOrEqual(0);
      expect(metrics.sum('outbox_due_emails')).toBe(0);
      expect(metrics.sum('outbox_oldest_due_seconds')).toBe(0);
    });
  });

  it('counts requests by route template, method and status, each app its own', async () => {
    const before = await scrape(server);
    const anon = new Client(server.url);
    for (let i = 0; i < 3; i++) expect((await anon.get(`/api/schools/${shop.slug}`)).status).toBe(200);
    expect((await anon.get('/api/no-such-thing')).status).toBe(404);
    const after = await scrape(server);
    const route = { method: 'GET', route: '/api/schools/:slug' };
    expect((after.sum('http_requests_total', { ...route, status: '200' }) ?? 0) - (before.sum('http_requests_total', { ...route, status: '200' }) ?? 0)).toBe(3);
    expect((after.sum('http_request_duration_seconds_count', route) ?? 0) - (before.sum('http_request_duration_seconds_count', route) ?? 0)).toBe(3);
    expect(after.sum('http_request_duration_seconds_bucket', { ...route, le: '+Inf' })).toBe(after.sum('http_request_duration_seconds_count', route));
    expect(after.sum('http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    // The other app in this process counted none of them.
    const third = await startTestServer({ METRICS_TOKEN: TOKEN }, { sharedWith: server });
    try {
      expect((await scrape(third)).sum('http_requests_total', route)).toBeUndefined();
    } finally {
      await third.close();
    }
  });

  it('counts an upload batch, its photos and their ingest time', async () => {
    const staff = await staffClient(server);
    const before = await scrape(server);
    const good = await solidJpeg(900, 600);
    const res = await staff.post(
      '/api/photos/upload-batch',
      photoForm(
        [
          { name: 'IMG_0001.JPG', bytes: good },
          { name: 'IMG_0002.JPG', bytes: good },
          { name: 'IMG_0003.JPG', bytes: await truncatedJpeg() },
        ],
        { albumId: String(shop.openAlbumId) },
      ),
    );
    expect(res.status).toBe(207);
    const refusedAll = await staff.post('/api/photos/upload-batch', photoForm([{ name: 'IMG_0004.JPG', bytes: await truncatedJpeg() }], { albumId: String(shop.openAlbumId) }));
    expect(refusedAll.status).toBeGreaterThanOrEqual(400);
    const after = await scrape(server);
    const moved = (name: string, labels: Record<string, string>) => (after.sum(name, labels) ?? 0) - (before.sum(name, labels) ?? 0);
    expect(moved('photo_uploads_total', { outcome: 'partial' })).toBe(1);
    expect(moved('photo_uploads_total', { outcome: 'refused' })).toBe(1);
    expect(moved('photos_processed_total', { outcome: 'stored' })).toBe(2);
    expect(moved('photos_processed_total', { outcome: 'refused' })).toBe(2);
    expect(moved('photo_ingest_duration_seconds_count', { stage: 'store' })).toBe(2);
    expect(moved('photo_ingest_duration_seconds_count', { stage: 'render' })).toBeGreaterThanOrEqual(2);
    expect(moved('photo_ingest_duration_seconds_sum', { stage: 'render' })).toBeGreaterThan(0);
    expect(moved('http_requests_total', { method: 'POST', route: '/api/photos/upload-batch', status: '207' })).toBe(1);
  });

  it('counts a payment, its e-mail queued and sent, a failed e-mail, the sender and the job failures', async () => {
    const before = await scrape(server);
    const parent = await parentFor(server, shop);
    const customerEmail = `parent-metrics-${Date.now()}@example.test`;
    const placed = await parent.post('/api/orders', orderBody(shop, standardLines(shop), { customerEmail }));
    expect(placed.status).toBe(201);
    const orderId: string = placed.body.order.id;
    secrets.push(customerEmail, orderId, shop.slug, shop.password);
    await payThroughSandbox(server, orderId);
    await catcher.waitFor(customerEmail);
    // A reset for an address the relay refuses for good: queued, then failed.
    const bounce = `bounce-${Date.now()}@example.test`;
    secrets.push(bounce);
    await createCustomer(server, { email: bounce, password: 'secret123' });
    expect((await new Client(server.url).post('/api/auth/customer/forgot-password', { email: bounce })).status).toBe(200);
    const moved = async (name: string, labels: Record<string, string>) => ((await scrape(server)).sum(name, labels) ?? 0) - (before.sum(name, labels) ?? 0);
    await waitUntil(async () => (await moved('outbox_emails_total', { event: 'failed' })) >= 1, 10_000);
    expect(await moved('payments_total', { outcome: 'initiated' })).toBe(1);
    expect(await moved('payments_total', { outcome: 'completed' })).toBe(1);
    expect(await moved('payments_total', { outcome: 'failed' })).toBe(0);
    expect(await moved('outbox_emails_total', { event: 'queued', kind: 'order_confirmation' })).toBe(1);
    expect(await moved('outbox_emails_total', { event: 'sent', kind: 'order_confirmation' })).toBe(1);
    expect(await moved('outbox_emails_total', { event: 'failed' })).toBe(await moved('outbox_emails_total', { event: 'queued', kind: 'password_reset' }));
    expect(await moved('background_job_runs_total', { job: 'outbox-sender', outcome: 'ran' })).toBeGreaterThanOrEqual(1);
    // A job that throws is counted as failed (every job runs through the runtime's job lock).
    await expect(server.runtime.jobLock.runExclusive('payment-sweep', () => Promise.reject(new Error('gateway down')))).rejects.toThrow('gateway down');
    expect(await moved('background_job_runs_total', { job: 'payment-sweep', outcome: 'failed' })).toBe(1);
  });

  it('counts rate-limit blocks by kind', async () => {
    const before = await scrape(server);
    const anon = new Client(server.url);
    const email = `staff-metrics-${Date.now()}@example.test`;
    secrets.push(email);
    let status = 0;
    for (let i = 0; i < 12 && status !== 429; i++) status = (await anon.post('/api/auth/login', { email, password: 'wrong-password' })).status;
    expect(status).toBe(429);
    const after = await scrape(server);
    expect((after.sum('rate_limit_blocks_total', { kind: 'staff-login' }) ?? 0) - (before.sum('rate_limit_blocks_total', { kind: 'staff-login' }) ?? 0)).toBe(1);
  });

  it('never puts e-mails, codes, order ids or private slugs in a label', async () => {
    // A student code and a download token travel too (both refused: unknown).
    const code = 'QX7M-4KTR';
    secrets.push(code);
    const anon = new Client(server.url);
    await anon.post('/api/students/verify', { code }, { Origin: server.url });
    await anon.get(`/api/downloads/${'tok'.repeat(10)}`);
    await anon.get(`/school/${shop.slug}`);
    secrets.push('tok'.repeat(10));
    const metrics = await scrape(server);
    expect(secrets.length).toBeGreaterThanOrEqual(8);
    const values = metrics.labelValues();
    for (const secret of secrets) {
      for (const value of values) expect(value.toLowerCase()).not.toContain(secret.toLowerCase());
    }
    // Every route label is a template or one of the fixed names.
    const routes = new Set(metrics.samples.filter((sample) => sample.name === 'http_requests_total').map((sample) => sample.labels.route ?? ''));
    for (const route of routes) expect(route).toMatch(/^(\/api\/[a-z0-9/:_.-]*|\/payweb3\/[a-z0-9/:_.-]*|unmatched|app|\/metrics)$/i);
    expect(routes).toContain('/api/orders');
    expect(routes).toContain('app');
  });
});

/** METRICS_PORT: the real server process serves /metrics on a listener of its own. */
describeApi('the metrics port', () => {
  let database: FreshDatabase;
  let run: ReturnType<typeof startServer> | null = null;

  beforeAll(async () => {
    database = await freshDatabase('photos-metrics-');
  });
  afterAll(async () => {
    if (run && run.child.exitCode === null) {
      run.child.kill('SIGTERM');
      await run.exited;
    }
    await database?.drop();
  });

  it('answers GET /metrics there without a token, and nothing else; the main port has no /metrics', async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    run = startServer({
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      DATABASE_URL: database.databaseUrl,
      DATA_DIR: database.dir,
      STORAGE_DIR: `${database.dir}/storage`,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
    });
    const url = `http://127.0.0.1:${port}`;
    expect((await waitForHealth(url, run.exited)).status).toBe(200);
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const metrics = parseExposition(await res.text());
    expect(metrics.sum('http_requests_total', { method: 'GET', route: '/api/health', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(metrics.sum('process_start_time_seconds')).toBeGreaterThan(0);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/api/health`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${url}/metrics`)).status).toBe(404);
    // Loopback only by default (METRICS_HOST unset): the machine's other addresses refuse the connection.
    const outside = externalAddress();
    if (outside) await expect(fetch(`http://${outside}:${metricsPort}/metrics`)).rejects.toThrow();
  }, 90_000);

  it('listens on the address METRICS_HOST names, and refuses a value that is not an address', async () => {
    const server = await startTestServer({ METRICS_HOST: '0.0.0.0' });
    const port = await freePort();
    const listener = await listenMetrics(server.runtime.metrics, port, server.runtime.logger, server.config.metricsHost);
    try {
      expect(server.config.metricsHost).toBe('0.0.0.0');
      const outside = externalAddress() ?? '127.0.0.1';
      expect((await fetch(`http://${outside}:${port}/metrics`)).status).toBe(200);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
      await server.close();
    }
    expect(() => loadConfig({ METRICS_HOST: 'metrics.example.bw', JWT_SECRET: 'x'.repeat(32) })).toThrow(/METRICS_HOST: must be an IP address/);
  }, 60_000);
});

/** A non-loopback IPv4 address of this machine, or null when it has none. */
function externalAddress(): string | null {
  for (const entries of Object.values(os.networkInterfaces())) {
    const found = entries?.find((entry) => entry.family === 'IPv4' && !entry.internal);
    if (found) return found.address;
  }
  return null;
}
