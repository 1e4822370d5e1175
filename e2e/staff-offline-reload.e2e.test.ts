/**
 * A photographer at a shoot with no network at all: after one earlier visit, the service worker
 * serves the shell and the staff code it kept, so the dashboard and its upload tab (with the
 * waiting queue from IndexedDB) reopen offline.
 */
import { expect, it } from 'vitest';
import { signIn } from './staff-helpers';
import { controlledPage, describeJourney } from './support/journey-suite';

describeJourney('staff screens offline', (env) => {
  it('reopens the dashboard and the upload tab with no network after a first visit', async () => {
    const { context, page } = await controlledPage(env);

    await signIn(page, env.server.url);
    await page.goto(`${env.server.url}/photographer-dashboard?tab=upload`);
    await page.getByRole('tab', { name: 'Upload Photos' }).waitFor();
    const cached = await page.evaluate(async () => (await (await caches.open('staff-code-v1')).keys()).map((r) => new URL(r.url).pathname));
    expect(cached.some((p) => /^\/assets\/staff-dashboard-/.test(p))).toBe(true);
    // Staff data is never cached: no API answer is in any cache.
    const apiCached = await page.evaluate(async () => {
      const found: string[] = [];
      for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) if (new URL(r.url).pathname.startsWith('/api/')) found.push(r.url);
      return found;
    });
    expect(apiCached).toEqual([]);

    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Photographer Dashboard' }).waitFor();
    await page.getByRole('tab', { name: 'Upload Photos' }).waitFor();
    await context.close();
  });
});
