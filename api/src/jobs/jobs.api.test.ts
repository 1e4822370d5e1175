import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DB, TEST_REDIS_URL, describeApi, describeRedis, startTestServer, type TestServer } from '../../test/harness';
import { createShop, orderBody, parentFor, payThroughSandbox, standardLines } from '../../test/shop';
import { connectRedis, createRedis, deploymentNamespace } from '../redis';
import { createLogger } from '../logger';
import { createJobLock, type JobLock } from './job-lock';
import { createMaintenance, PAYMENT_SWEEP_AGE_MS } from './maintenance';
import { createCommerce } from '../orders/commerce';
import { agePayments } from '../../test/fixtures';

/** A job that runs until the test lets it finish, so another holder can be tried meanwhile. */
function heldJob() {
  let finish!: () => void;
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    running,
    finish: () => finish(),
    job: async () => {
      started();
      await done;
    },
  };
}

/** Exclusive between `first` and `second` (two processes of one deployment, or one process twice). */
async function expectExclusive(first: JobLock, second: JobLock, name: string): Promise<void> {
  const held = heldJob();
  const holding = first.runExclusive(name, held.job);
  await held.running;
  let ranMeanwhile = false;
  expect(await second.runExclusive(name, async () => void (ranMeanwhile = true))).toBe(false);
  expect(await first.runExclusive(name, async () => void (ranMeanwhile = true))).toBe(false);
  expect(ranMeanwhile).toBe(false);
  // Another job name is not held up.
  expect(await second.runExclusive('other-job', async () => undefined)).toBe(true);
  held.finish();
  expect(await holding).toBe(true);
  expect(await second.runExclusive(name, async () => undefined)).toBe(true);
  // A job that fails gives the lock back all the same.
  await expect(first.runExclusive(name, () => Promise.reject(new Error('gateway down')))).rejects.toThrow('gateway down');
  expect(await second.runExclusive(name, async () => undefined)).toBe(true);
}

/** A pending payment whose notify was lost, created long enough ago for the sweep to ask about it. */
async function lostNotify(server: TestServer): Promise<string> {
  const shop = await createShop(server);
  const parent = await parentFor(server, shop);
  const placed = await parent.post('/api/orders', orderBody(shop, standardLines(shop)));
  expect(placed.status).toBe(201);
  const orderId: string = placed.body.order.id;
  await payThroughSandbox(server, orderId, { followReturn: false });
  await agePayments(server, orderId, 5 * 60_000);
  return orderId;
}

const paymentStatus = async (server: TestServer, orderId: string) => (await server.runtime.knex('orders').where({ id: orderId }).first()).payment_status;

/**
 * Background jobs run on timers in every process; each job runs in one process at a time: Redis
 * when REDIS_URL is set, GET_LOCK on MySQL, a lock inside the process on SQLite.
 */
describeApi('background jobs across processes', () => {
  describe('without Redis', () => {
    let a: TestServer;
    let b: TestServer;
    beforeAll(async () => {
      a = await startTestServer({ SANDBOX_SUPPRESS_NOTIFY: 'true', PAYMENT_QUERY_INTERVAL_MS: '3600000' });
      b = await startTestServer({ SANDBOX_SUPPRESS_NOTIFY: 'true' }, { sharedWith: a });
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it(`uses ${TEST_DB === 'mysql' ? "MySQL's GET_LOCK across processes" : 'a lock inside the process on SQLite'}`, async () => {
      expect(a.runtime.jobLock.kind).toBe(TEST_DB === 'mysql' ? 'mysql' : 'process');
      // On SQLite two processes have a lock each; within one, a job is never run twice at once.
      await expectExclusive(a.runtime.jobLock, TEST_DB === 'mysql' ? b.runtime.jobLock : a.runtime.jobLock, 'payment-sweep');
    });

    it('the payment sweep skips while another holder runs it, then settles the lost notify', async () => {
      const orderId = await lostNotify(a);
      expect(await paymentStatus(a, orderId)).toBe('pending');
      const holder = TEST_DB === 'mysql' ? b : a;
      const held = heldJob();
      const holding = holder.runtime.jobLock.runExclusive('payment-sweep', held.job);
      await held.running;
      expect(await createMaintenance(a.runtime).sweepPayments()).toBe(false);
      expect(await paymentStatus(a, orderId)).toBe('pending');
      held.finish();
      await holding;
      expect(await createMaintenance(a.runtime).sweepPayments()).toBe(true);
      expect(await paymentStatus(a, orderId)).toBe('completed');
    });
  });

  describeRedis('with REDIS_URL', () => {
    let a: TestServer;
    let b: TestServer;
    beforeAll(async () => {
      a = await startTestServer({ REDIS_URL: TEST_REDIS_URL, SANDBOX_SUPPRESS_NOTIFY: 'true', PAYMENT_QUERY_INTERVAL_MS: '3600000' });
      b = await startTestServer({ REDIS_URL: TEST_REDIS_URL, SANDBOX_SUPPRESS_NOTIFY: 'true' }, { sharedWith: a });
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it('a Redis lock keeps a job to one process at a time', async () => {
      expect(a.runtime.jobLock.kind).toBe('redis');
      await expectExclusive(a.runtime.jobLock, b.runtime.jobLock, 'rate-limit-sweep');
    });

    it('two processes sweeping at once: one sweeps, the other skips, and the payment settles once', async () => {
      const orderId = await lostNotify(a);
      const held = heldJob();
      // A is in the middle of its sweep when B's timer fires. (A sweeps: the built-in sandbox
      // gateway keeps its transactions in the process that started them.)
      const holding = a.runtime.jobLock.runExclusive('payment-sweep', async () => {
        await held.job();
        await createCommerce(a.runtime).payments.sweep(PAYMENT_SWEEP_AGE_MS);
      });
      await held.running;
      expect(await createMaintenance(b.runtime).sweepPayments()).toBe(false);
      held.finish();
      expect(await holding).toBe(true);
      expect(await paymentStatus(a, orderId)).toBe('completed');
      const queries = await a.runtime.knex('payment_callbacks').where({ kind: 'query' });
      expect(queries).toHaveLength(1);
    });
  });

  describeRedis('the Redis lease', () => {
    const redis = createRedis(TEST_REDIS_URL, createLogger('silent'));
    const database = `lease-test-${process.pid}-${Date.now()}`;
    const lock = (leaseMs: number) => createJobLock({ knex: null as never, dialect: 'sqlite', database, redis, logger: createLogger('silent'), leaseMs });
    beforeAll(() => connectRedis(redis, TEST_REDIS_URL));
    afterEach(async () => {
      await redis.del(`${deploymentNamespace(database)}:long-job`, `${deploymentNamespace(database)}:orphan`);
    });
    afterAll(() => redis.disconnect());

    it('is renewed while a long job runs, and lapses when its holder died', async () => {
      const held = heldJob();
      const holding = lock(1_200).runExclusive('long-job', held.job);
      await held.running;
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(await lock(1_200).runExclusive('long-job', async () => undefined)).toBe(false);
      held.finish();
      expect(await holding).toBe(true);

      // A process that died holding the lock: its key stays until the lease runs out.
      await redis.set(`${deploymentNamespace(database)}:orphan`, 'dead-process', 'PX', 300);
      expect(await lock(1_200).runExclusive('orphan', async () => undefined)).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await lock(1_200).runExclusive('orphan', async () => undefined)).toBe(true);
    });
  });
});
