/**
 * Offline on a phone (issue 29): the gallery says it is offline, and a photo whose thumbnail was
 * never loaded on this device shows an "Available when online" tile instead of a broken image;
 * back online, it loads.
 */
import { expect, it } from 'vitest';
import { adminToken, api } from './staff-helpers';
import { openClass, unlockSchool } from './support/journey';
import { PHONE, controlledPage, describeJourney } from './support/journey-suite';

describeJourney('a photo never opened, offline', (env) => {
  it('shows an Available when online tile and an offline notice', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const schools = await api<{ slug: string; albums: { id: number; name: string }[] }[]>(base, '/api/schools', { token });
    const classA = schools.find((school) => school.slug === 'demo-primary')!.albums.find((album) => album.name === 'Class 1A')!;
    const [, second] = await api<{ id: number }[]>(base, `/api/albums/${classA.id}/photos`, { token });
    const { context, page } = await controlledPage(env, PHONE);
    // This photo's thumbnails never reach the phone while it is online.
    const never = new RegExp(`/api/images/${second!.id}/`);
    await context.route(never, (route) => route.abort());
    await unlockSchool(page, base, 'Demo Primary School', 'demo1234');
    await openClass(page, 'Class 1A');
    await page.locator('.photo-tile img').first().waitFor();
    // Every other thumbnail reaches the phone (lazy ones too) before it goes offline: only the
    // blocked photo was never seen.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForFunction(() => {
      const images = [...document.querySelectorAll<HTMLImageElement>('.photo-tile img')];
      return images.length > 1 && images.filter((image) => !(image.complete && image.naturalWidth > 0)).length <= 1;
    }, undefined, { timeout: 60_000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await page.getByText('You are offline.', { exact: false }).count()).toBe(0);

    await context.setOffline(true);
    await context.unroute(never);
    await page.reload();
    await page.getByRole('button', { name: 'Back to Classes' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'You are offline. Photos you opened before are shown' }).waitFor();
    const tile = page.getByRole('img', { name: /: Available when online$/ });
    await tile.waitFor();
    expect(await tile.count()).toBe(1);

    await context.setOffline(false);
    await tile.waitFor({ state: 'detached' });
    expect(await page.getByText('You are offline.', { exact: false }).count()).toBe(0);
    await context.close();
  });
});
