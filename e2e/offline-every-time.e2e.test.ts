/**
 * A class the parent opened opens again offline every time: on the very first visit (the new
 * service worker takes the page over at once), going offline the moment the class has loaded,
 * after a reload and after a cold start of the app. The photo list comes from the worker's
 * cache, not from the throttled query persister. A lapsed grant (401) and a logout empty those
 * caches.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addFirstPhoto, openClass, unlockSchool } from './support/journey';
import { describeJourney } from './support/journey-suite';
import { loadAllThumbnails } from '../scripts/wire-measure';

const QUERY_CACHE_KEY = 'lesedi-query-cache';

/** Every thumbnail of the grid is decoded and shown. */
async function everyThumbnailShown(page: Page): Promise<number> {
  await page.locator('.photo-tile img').first().waitFor();
  return page.evaluate(async () => {
    const images = [...document.querySelectorAll<HTMLImageElement>('.photo-tile img')];
    await Promise.all(images.map((img) => img.decode()));
    return images.filter((img) => img.complete && img.naturalWidth > 0).length;
  });
}

describeJourney('a class opens offline every time', (env) => {
  it('first visit, offline at once: a reload and a cold start show every thumbnail and the cart', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${env.server.url}/`);
    // The first visit's worker claims this very page once installed: no reload is needed.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });

    await unlockSchool(page, env.server.url, 'Demo Primary School', 'demo1234');
    await openClass(page, 'Class 1A');
    const photos = await loadAllThumbnails(page);
    expect(photos).toBe(12);
    await addFirstPhoto(page, [{ name: '10x15 Print' }]);
    const galleryUrl = page.url();

    // Offline the moment the class is on screen. Every document from now on starts without the
    // persisted query cache, so what shows can only come from the service worker.
    await context.addInitScript((key) => localStorage.removeItem(key), QUERY_CACHE_KEY);
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Demo Primary School' }).waitFor();
    await page.getByText('Class 1A', { exact: true }).waitFor();
    expect(await everyThumbnailShown(page)).toBe(photos);
    await page.getByRole('heading', { name: 'Selected Photos (1)' }).waitFor();
    await page.getByRole('button', { name: 'Cart, 1 item. Go to checkout' }).waitFor();
    await expect(page.getByText('We could not load the photos of this class', { exact: false }).count()).resolves.toBe(0);

    // A cold start of the installed app: a new window, still offline, nothing in memory.
    await page.close();
    const cold = await context.newPage();
    await cold.goto(galleryUrl);
    await cold.getByRole('button', { name: 'Back to Classes' }).waitFor();
    expect(await everyThumbnailShown(cold)).toBe(photos);
    await cold.getByRole('button', { name: 'Cart, 1 item. Go to checkout' }).waitFor();

    // Back to the class list and into another class works offline too for the one seen before.
    await cold.getByRole('button', { name: 'Back to Classes' }).click();
    await cold.locator('.class-card').first().waitFor();
    await context.setOffline(false);
    await context.close();
  });

  it('a lapsed grant (401) and a logout empty the gallery caches', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${env.server.url}/`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
    await unlockSchool(page, env.server.url, 'Demo Primary School', 'demo1234');
    await openClass(page, 'Class 2B');
    await loadAllThumbnails(page);
    const cached = () =>
      page.evaluate(async () => {
        const count = async (name: string) => ((await caches.has(name)) ? (await (await caches.open(name)).keys()).length : 0);
        return { data: await count('gallery-data-v1'), images: await count('gallery-images-v1') };
      });
    const before = await cached();
    expect(before.data).toBeGreaterThanOrEqual(4);
    expect(before.images).toBeGreaterThanOrEqual(12);

    // The access cookie is gone (expired): the next gallery call is refused and the worker forgets.
    const schoolId = await page.evaluate(async () => ((await (await fetch('/api/schools/demo-primary')).json()) as { id: number }).id);
    await context.clearCookies();
    const status = await page.evaluate(async (id) => (await fetch(`/api/schools/${id}/albums`)).status, schoolId);
    expect(status).toBe(401);
    await expect.poll(cached).toEqual({ data: 0, images: 0 });

    // Unlock again, then log in and out as a customer: the logout empties the caches as well.
    await unlockSchool(page, env.server.url, 'Demo Primary School', 'demo1234');
    await openClass(page, 'Class 2B');
    // The photo list is cached again (thumbnails still in the page's memory cache do not pass the worker).
    await expect.poll(async () => (await cached()).data).toBeGreaterThanOrEqual(4);
    const email = `offline.${Date.now()}@example.com`;
    const registered = await page.evaluate(async (address) => {
      const res = await fetch('/api/auth/customer/register', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ firstName: 'Naledi', lastName: 'Parent', email: address, password: 'secret123', confirmPassword: 'secret123' }),
      });
      const body = (await res.json()) as { token: string; user: unknown };
      localStorage.setItem('customerToken', body.token);
      localStorage.setItem('customerUser', JSON.stringify(body.user));
      return res.status;
    }, email);
    expect(registered).toBe(201);
    await page.reload();
    await page.getByRole('button', { name: 'Logout' }).first().click();
    await page.waitForURL('**/customer/auth');
    await expect.poll(cached).toEqual({ data: 0, images: 0 });
    await context.close();
  });
});
