import type { TestProject } from 'vitest/node';
import knexFactory from 'knex';
import { databaseTarget } from '../src/db/knex';

declare module 'vitest' {
  export interface ProvidedContext {
    mysqlAvailable: boolean;
  }
}

/**
 * The MariaDB suite needs a server. Outside CI a missing server skips that suite with a loud
 * notice, so `npm test` passes for a newcomer; with CI=true it is a failure.
 */
export default async function setup(project: TestProject): Promise<void> {
  if (project.config.env?.TEST_DB !== 'mysql') {
    project.provide('mysqlAvailable', false);
    return;
  }
  const url = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
  const target = databaseTarget(url);
  const knex = knexFactory({ ...target.config, acquireConnectionTimeout: 3000 });
  let available = false;
  let reason = '';
  try {
    await knex.raw('select 1');
    available = true;
  } catch (err) {
    reason = err instanceof Error ? err.message : String(err);
  } finally {
    await knex.destroy();
  }
  if (!available) {
    const notice = `MariaDB/MySQL is not reachable at ${url.replace(/\/\/[^@]*@/, '//***@')} (${reason}).`;
    if (process.env.CI === 'true') throw new Error(`${notice} CI needs it: the API suite must run on MySQL too.`);
    console.warn(`\n${'!'.repeat(78)}\n!! SKIPPING the API suite on MySQL: ${notice}\n!! Set TEST_MYSQL_URL or start MariaDB to run it.\n${'!'.repeat(78)}\n`);
  }
  project.provide('mysqlAvailable', available);
}
