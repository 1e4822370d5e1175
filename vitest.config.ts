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
        extends: true,
        test: {
          name: 'unit',
          include: ['api/**/*.unit.test.ts', 'pwa/**/*.unit.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'api-sqlite',
          include: ['api/**/*.api.test.ts', 'db/**/*.api.test.ts'],
          env: { TEST_DB: 'sqlite' },
          globalSetup: ['api/test/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'api-mysql',
          include: ['api/**/*.api.test.ts', 'db/**/*.api.test.ts'],
          env: { TEST_DB: 'mysql' },
          globalSetup: ['api/test/global-setup.ts'],
        },
      },
    ],
  },
});
