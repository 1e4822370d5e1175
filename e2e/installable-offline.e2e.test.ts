/**
 * The PWA promises: Chromium's own installability check passes, and with the service worker in
 * control the cart, the school and the class (names, classes, thumbnails) survive an offline
 * reload; checkout then says the parent is offline and keeps the cart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { launchPersistent } from './support/browser';
import { addFirstPhoto, openClass, unlockSchool } from './support/journey';
import { controlledPage, describeJourney } from './support/journey-suite';

describeJourney('installable and offline', (env) => {
  it('passes Chromium installability checks', async () => {
    // Incognito pages are never installable, so this check runs in a real (temporary) profile.
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'photos-profile-'));
    const context = await launchPersistent(profile);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${env.server.url}/`);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
    expect(installabilityErrors).toEqual([]);
    const manifest = (await cdp.send('Page.getAppManifest')) as { errors: unknown[]; url: string };
    expect(manifest.errors).toEqual([]);
    expect(manifest.url).toBe(`${env.server.url}/manifest.webmanifest`);
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  });

  it('keeps the cart and the open class through an offline reload', async () => {
    const { context, page } = await controlledPage(env);

    await unlockSchool(page, env.server.url, 'Demo Primary School', 'demo1234');
    await openClass(page, 'Class 2B');
    await addFirstPhoto(page, [{ name: '15x20 Print', quantity: 2 }]);
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.photo-tile img');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    // The query cache is persisted (throttled); wait until the class's photo list is in it.
    await page.waitForFunction(() => (localStorage.getItem('lesedi-query-cache') ?? '').includes('"photos"'));
    const galleryUrl = page.url();

    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Demo Primary School' }).waitFor();
    await page.getByText('Class 2B', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Selected Photos (1)' }).waitFor();
    await page.getByRole('button', { name: 'Cart, 1 item. Go to checkout' }).waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.photo-tile img');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    expect(page.url()).toBe(galleryUrl);

    await page.getByRole('button', { name: 'Back to Classes' }).click();
    await page.locator('.class-card').first().waitFor();

    await page.getByRole('button', { name: 'Cart, 1 item. Go to checkout' }).click();
    await page.getByRole('heading', { name: 'Complete Your Order' }).waitFor();
    await page.getByText('You are offline. Your cart is saved on this device', { exact: false }).first().waitFor();
    await page.getByLabel('Your name').fill('Offline Parent');
    await page.getByLabel('Email').fill('offline@example.com');
    await page.getByLabel('Student name').fill('Kabelo');
    await page.getByRole('button', { name: 'Place Order and Pay' }).click();
    await page.locator('.toast').filter({ hasText: 'You are offline' }).first().waitFor();
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '[]').length)).toBe(1);

    await context.setOffline(false);
    await context.close();
  });
});
