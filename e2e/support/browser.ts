/**
 * Chromium for the journeys: Debian's /usr/bin/chromium driven by playwright-core (never a
 * downloaded browser). Missing Chromium skips loudly outside CI and fails in CI.
 */
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = fs.existsSync(CHROMIUM_PATH);

if (!hasChromium) {
  const message = `Chromium not found at ${CHROMIUM_PATH}: the browser journeys cannot run.`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`\n*** SKIPPING E2E: ${message} ***\n`);
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * A persistent (non-incognito) profile: Chromium reports every incognito page as not installable,
 * so the installability check needs a real profile directory.
 */
export async function launchPersistent(userDataDir: string) {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
