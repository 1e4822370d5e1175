import { afterAll, beforeAll, expect, it } from 'vitest';
import { TEST_DB, describeApi, startTestServer, type TestServer } from '../../test/harness';
import { createShop, orderBody, parentFor, standardLines } from '../../test/shop';
import type { JobLock } from '../jobs/job-lock';
import { createMaintenance } from '../jobs/maintenance';

/**
 * The planner's statistics (docs/operations.md, "The planner's statistics"): refreshed by the
 * background jobs once at start and then whenever due, under the job lock, on both databases.
 */
describeApi("the planner's statistics", () => {
  let server: TestServer;
  const logs: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: 'info', OUTBOX_POLL_MS: '3600000' }, { logs });
    const shop = await createShop(server);
    const parent = await parentFor(server, shop);
    for (let i = 0; i < 3; i++) expect((await parent.post('/api/orders', orderBody(shop, standardLines(shop)))).status).toBe(201);
  });
  afterAll(async () => server?.close());

  it('are refreshed at start and again when due, one process at a time', async () => {
    const ran: string[] = [];
    // The runtime's own lock, recording which jobs it was asked to run.
    const jobLock: JobLock = {
      kind: server.runtime.jobLock.kind,
      runExclusive: (name, job, options) => {
        ran.push(name);
        return server.runtime.jobLock.runExclusive(name, job, options);
      },
    };
    const refreshed = () => logs.map((line) => JSON.parse(line) as { msg: string; tables?: number }).filter((line) => line.msg === "the query planner's statistics refreshed");
    const stop = createMaintenance({ ...server.runtime, jobLock }, { optimizeEveryMs: 300 }).start();
    try {
      const deadline = Date.now() + 20_000;
      while (refreshed().length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await stop();
    }
    expect(ran.filter((name) => name === 'db-optimize').length).toBeGreaterThanOrEqual(3);
    const runs = refreshed();
    expect(runs.length).toBeGreaterThanOrEqual(3);
    if (TEST_DB === 'sqlite') {
      // At start every table is looked at, and those with rows and indexes get their statistics.
      expect(runs[0]?.tables).toBeGreaterThan(0);
      const stats = (await server.runtime.knex.raw("SELECT DISTINCT tbl FROM sqlite_stat1 WHERE tbl = 'orders'")) as { tbl: string }[];
      expect(stats.map((row) => row.tbl)).toEqual(['orders']);
    } else {
      // The busiest tables, every time.
      expect(runs.every((run) => run.tables === 9)).toBe(true);
    }
  });

  it('runs once at a time: a second run while one is under way is skipped', async () => {
    const maintenance = createMaintenance(server.runtime);
    const [first, second] = await Promise.all([maintenance.optimizeDatabase(), maintenance.optimizeDatabase()]);
    expect([first, second].sort()).toEqual([false, true]);
  });
});
