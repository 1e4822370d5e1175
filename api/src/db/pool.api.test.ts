import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeApi, startTestServer, type TestServer } from '../../test/harness';
import { poolStats } from './pool';

/**
 * docs/operations.md, "What the server does before it answers": every connection the pool may hold
 * is open before the first request, so the first rush after a start never waits for handshakes.
 */
describeApi('the database pool at start', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  it('holds every connection it may open, idle, before the first request', () => {
    const stats = poolStats(server.runtime.knex);
    expect(stats).not.toBeNull();
    expect(stats!.max).toBeGreaterThan(0);
    expect(stats!.used + stats!.free).toBe(stats!.max);
    expect(stats!.pending).toBe(0);
  });
});
