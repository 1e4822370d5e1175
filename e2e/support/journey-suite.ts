import { afterAll, beforeAll, describe } from 'vitest';
import type { Browser } from 'playwright-core';
import { hasChromium, launchBrowser } from './browser';
import { startServer, type TestServer } from './server';

export interface JourneyEnv {
  server: TestServer;
  browser: Browser;
}

/**
 * A browser journey suite: the real server on a fresh database and Debian's Chromium, started
 * once per file and stopped after it. Without Chromium the suite is skipped (globalSetup fails
 * the run when CI=true).
 */
export function describeJourney(name: string, body: (env: JourneyEnv) => void): void {
  describe.skipIf(!hasChromium)(name, () => {
    const env = {} as JourneyEnv;
    beforeAll(async () => {
      [env.server, env.browser] = await Promise.all([startServer(), launchBrowser()]);
    });
    afterAll(async () => {
      await env.browser?.close();
      await env.server?.stop();
    });
    body(env);
  });
}
