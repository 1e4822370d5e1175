import type { TestProject } from 'vitest/node';
import knexFactory from 'knex';
import { Redis } from 'ioredis';
import { databaseTarget } from '../src/db/knex';

declare module 'vitest' {
  export interface ProvidedContext {
    mysqlAvailable: boolean;
    redisAvailable: boolean;
    s3Available: boolean;
  }
}

const inCi = process.env.CI === 'true';

function missing(what: string, notice: string, hint: string): void {
  if (inCi) throw new Error(`${notice} CI needs it: ${what}`);
  console.warn(`\n${'!'.repeat(78)}\n!! SKIPPING ${what}: ${notice}\n!! ${hint}\n${'!'.repeat(78)}\n`);
}

/**
 * The API suites need services: MariaDB (the mysql project), Redis (shared rate limits, job locks,
 * the two-process journey) and an S3-protocol server (s3rver, started in-process by the tests).
 * Outside CI a missing one skips the suites that need it with a loud notice, so `npm test` passes
 * for a newcomer; with CI=true it is a failure.
 */
export default async function setup(project: TestProject): Promise<void> {
  const testDb = project.config.env?.TEST_DB;
  project.provide('mysqlAvailable', testDb === 'mysql' ? await mysqlAvailable() : false);
  project.provide('redisAvailable', testDb ? await redisAvailable() : false);
  project.provide('s3Available', testDb ? await s3Available() : false);
}

async function mysqlAvailable(): Promise<boolean> {
  const url = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
  const target = databaseTarget(url);
  const knex = knexFactory({ ...target.config, acquireConnectionTimeout: 3000 });
  try {
    await knex.raw('select 1');
    return true;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    missing('the API suite on MySQL', `MariaDB/MySQL is not reachable at ${url.replace(/\/\/[^@]*@/, '//***@')} (${reason}).`, 'Set TEST_MYSQL_URL or start MariaDB to run it.');
    return false;
  } finally {
    await knex.destroy();
  }
}

async function redisAvailable(): Promise<boolean> {
  const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return true;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    missing('the suites on Redis', `Redis is not reachable at ${url} (${reason}).`, 'Set TEST_REDIS_URL or start redis-server to run them.');
    return false;
  } finally {
    redis.disconnect();
  }
}

async function s3Available(): Promise<boolean> {
  try {
    const { startS3Server } = await import('./s3');
    const server = await startS3Server();
    await server.close();
    return true;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    missing('the suites on S3 object storage', `the in-process S3 server (s3rver) does not start (${reason}).`, 'Run npm install (s3rver is a dev dependency).');
    return false;
  }
}
