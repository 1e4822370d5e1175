import { defineConfig } from 'vitest/config';

/**
 * Three projects: pure unit tests once, and every API suite twice — on the embedded SQLite and on
 * MariaDB/MySQL (TEST_MYSQL_URL, default the local server).
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['api/**/*.unit.test.ts', 'pwa/**/*.unit.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api-sqlite',
          include: ['api/**/*.api.test.ts'],
          env: { TEST_DB: 'sqlite' },
          globalSetup: ['api/test/global-setup.ts'],
        },
      },
      {
        test: {
          name: 'api-mysql',
          include: ['api/**/*.api.test.ts'],
          env: { TEST_DB: 'mysql' },
          globalSetup: ['api/test/global-setup.ts'],
        },
      },
    ],
  },
});
