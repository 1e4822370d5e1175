import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARDENING_MSG } from '../../contract/messages';
import { Client, TEST_REDIS_URL, describeApi, describeRedis, describeS3, startTestServer, type JsonResponse, type TestServer } from '../../test/harness';
import { startTcpProxy, type TcpProxy } from '../../test/tcp-proxy';
import { startS3Server, type S3TestServer } from '../../test/s3';

const healthy = (redis: 'ok' | 'not configured') => ({ status: 'ok', database: 'ok', storage: 'ok', redis });

function expectDown(res: JsonResponse, down: Record<string, string>, code: string) {
  expect(res.status).toBe(503);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(res.body).toMatchObject({ message: HARDENING_MSG.databaseUnavailable, code, status: 'unavailable', ...down });
}

/** Polls until health answers 200 again (a client reconnecting takes a moment); fails after 10 s. */
async function healthyAgain(client: Client): Promise<JsonResponse> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await client.get('/api/health');
    if (res.status === 200 || Date.now() > deadline) return res;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * GET /api/health is what a load balancer asks: it reports the database, the photo storage and
 * Redis, and answers 503 while any of them is down, so the process is taken out of rotation.
 */
describeApi('GET /api/health', () => {
  describe('on the storage folder', () => {
    let server: TestServer;
    let anon: Client;
    beforeAll(async () => {
      server = await startTestServer();
      anon = new Client(server.url);
    });
    afterAll(() => server?.close());

    it('reports every dependency, and a storage folder gone is a 503 until it is back', async () => {
      const ok = await anon.get('/api/health');
      expect(ok.status).toBe(200);
      expect(ok.headers.get('cache-control')).toBe('no-store');
      expect(ok.body).toEqual(healthy('not configured'));

      const aside = `${server.storageDir}-moved`;
      await fs.rename(server.storageDir, aside);
      try {
        expectDown(await anon.get('/api/health'), { database: 'ok', storage: 'down', redis: 'not configured' }, 'STORAGE_UNAVAILABLE');
      } finally {
        await fs.rename(aside, server.storageDir);
      }
      expect((await anon.get('/api/health')).body).toEqual(healthy('not configured'));
    });
  });

  describeRedis('with Redis', () => {
    let proxy: TcpProxy;
    let server: TestServer;
    let anon: Client;
    beforeAll(async () => {
      const target = new URL(TEST_REDIS_URL);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
      server = await startTestServer({ REDIS_URL: `redis://127.0.0.1:${proxy.port}` });
      anon = new Client(server.url);
    });
    afterAll(async () => {
      await server?.close();
      await proxy?.close();
    });

    it('reports Redis, and Redis cut off is a 503 until it answers again', async () => {
      expect((await anon.get('/api/health')).body).toEqual(healthy('ok'));
      await proxy.cut();
      expectDown(await anon.get('/api/health'), { database: 'ok', storage: 'ok', redis: 'down' }, 'REDIS_UNAVAILABLE');
      await proxy.restore();
      const back = await healthyAgain(anon);
      expect(back.status).toBe(200);
      expect(back.body).toEqual(healthy('ok'));
    });
  });

  describeS3('on an S3 bucket', () => {
    let s3: S3TestServer;
    let server: TestServer;
    let anon: Client;
    beforeAll(async () => {
      s3 = await startS3Server();
      server = await startTestServer(s3.env('health'));
      anon = new Client(server.url);
    });
    afterAll(async () => {
      await server?.close();
      await s3?.close();
    });

    it('reports the bucket, and an S3 server that stops answering is a 503 until it is back', async () => {
      expect(server.runtime.storage.kind).toBe('s3');
      expect((await anon.get('/api/health')).body).toEqual(healthy('not configured'));
      await s3.stop();
      try {
        expectDown(await anon.get('/api/health'), { database: 'ok', storage: 'down', redis: 'not configured' }, 'STORAGE_UNAVAILABLE');
      } finally {
        await s3.start();
      }
      const back = await healthyAgain(anon);
      expect(back.body).toEqual(healthy('not configured'));
    });
  });
});
