import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const contract = fileURLToPath(new URL('./api/contract/', import.meta.url));

/**
 * Projects: pure unit tests once; every API suite twice — on the embedded SQLite and on
 * MariaDB/MySQL (TEST_MYSQL_URL, default the local server); the PWA's component and hook tests in
 * jsdom; and the browser journeys (e2e) against the real server.
 *
 * Every test file starts its own server on its own database, storage folder and Redis namespace
 * (a journey also its own browser), so files run side by side: three at a time for the unit, API
 * and PWA suites, which spend much of their time waiting on sockets, timers and the databases (on
 * 2 cores that took them from 840 s to 612 s), and two at a time for the journeys, each of which
 * drives a browser. The journeys run after everything else, so they never compete with API suites.
 *
 * The API suites share their workers' module cache (`isolate: false`): each file still builds its
 * own server, database and storage through api/test/harness.ts, but the server's modules are loaded
 * once per worker instead of once per file. On this 2-core machine, which the suites keep busy,
 * loading them was most of the work: both API projects together went from about 700 s to 354 s.
 */
export default defineConfig({
  test: {
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['api/**/*.unit.test.ts', 'scripts/**/*.unit.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'api-sqlite',
          include: ['api/**/*.api.test.ts', 'db/**/*.api.test.ts'],
          isolate: false,
          env: { TEST_DB: 'sqlite' },
          globalSetup: ['api/test/global-setup.ts'],
        },
      },
      {
        extends: true,
        plugins: [react()],
        resolve: {
          alias: [
            { find: /^@contract$/, replacement: `${contract}index.ts` },
            { find: /^@contract\/(.*)$/, replacement: `${contract}$1` },
          ],
        },
        test: {
          name: 'pwa',
          include: ['pwa/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['pwa/test/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          environment: 'node',
          sequence: { groupOrder: 1 },
          maxWorkers: 2,
          testTimeout: 180_000,
          hookTimeout: 240_000,
          globalSetup: ['e2e/support/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'api-mysql',
          include: ['api/**/*.api.test.ts', 'db/**/*.api.test.ts'],
          isolate: false,
          env: { TEST_DB: 'mysql' },
          globalSetup: ['api/test/global-setup.ts'],
        },
      },
    ],
  },
});
