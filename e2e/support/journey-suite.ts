import { afterAll, beforeAll, describe } from 'vitest';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { hasChromium, launchBrowser } from './browser';
import { startMailCatcher, type MailCatcher } from '../../api/test/mail-catcher';
import { startSmsc, type TestSmsc } from '../../api/test/smsc';
import { startServer, type TestServer } from './server';

export interface JourneyEnv {
  server: TestServer;
  browser: Browser;
  /** The SMTP catcher the server sends its e-mails to; only in suites started with `{ mail: true }`. */
  mail: MailCatcher;
  /** The test SMS centre the server sends its SMS to; only in suites started with `{ sms: true }`. */
  smsc: TestSmsc;
}

export interface JourneyOptions {
  serverEnv?: Record<string, string>;
  /** Start a real SMTP catcher (in this process) and give the server SMTP_URL pointing at it. */
  mail?: boolean;
  /** Start a test SMS centre (a real SMPP server, in this process) and give the server SMS_URL pointing at it. */
  sms?: boolean;
}

/**
 * A browser journey suite: the real server on a fresh database and Debian's Chromium, started
 * once per file and stopped after it. Without Chromium the suite is skipped (globalSetup fails
 * the run when CI=true).
 */
export function describeJourney(name: string, body: (env: JourneyEnv) => void, options: JourneyOptions = {}): void {
  describe.skipIf(!hasChromium)(name, () => {
    const env = {} as JourneyEnv;
    beforeAll(async () => {
      const serverEnv = { ...options.serverEnv };
      if (options.mail) {
        env.mail = await startMailCatcher();
        serverEnv.SMTP_URL = env.mail.url;
      }
      if (options.sms) {
        env.smsc = await startSmsc();
        serverEnv.SMS_URL = env.smsc.url;
      }
      [env.server, env.browser] = await Promise.all([startServer(serverEnv), launchBrowser()]);
    });
    afterAll(async () => {
      await env.browser?.close();
      await env.server?.stop();
      await env.mail?.close();
      await env.smsc?.stop();
    });
    body(env);
  });
}

/**
 * A new page that the service worker controls: the first load installs the worker, and from the
 * reload on it answers the page's requests (offline behaviour needs that).
 */
export async function controlledPage(env: JourneyEnv, options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await env.browser.newContext(options);
  const page = await context.newPage();
  await page.goto(`${env.server.url}/`);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await page.reload();
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) throw new Error('the service worker did not take control');
  return { context, page };
}

/** A parent's phone: a small touch screen. */
export const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 740 }, hasTouch: true, isMobile: true };
