/**
 * Uploads that survive a school shoot: the connection drops mid-upload just after the server stored
 * a batch (its answer is lost), the page is reloaded while the server is still unreachable, and once
 * it is reachable again the queue finishes by itself without uploading any photo twice.
 * Service workers are blocked here so the page's own runner (the fallback where background sync is
 * missing) is what finishes the queue; a worker's requests would bypass the interception.
 */
import { expect, it } from 'vitest';
import { adminToken, createSchoolAndClass, makePhotos, photoCount, recordUploadUi, signIn } from './staff-helpers';
import { describeJourney } from './support/journey-suite';

describeJourney('upload queue offline', (env) => {
  it('keeps the queue through a dropped connection and a reload, with no duplicates', async () => {
    const token = await adminToken(env.server.url);
    const target = await createSchoolAndClass(env.server.url, token, 'offline');
    const context = await env.browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const log = await recordUploadUi(page);
    await signIn(page, env.server.url);

    let uploads = 0;
    let dropped!: () => void;
    const connectionDropped = new Promise<void>((resolve) => (dropped = resolve));
    await page.route('**/api/photos/upload-batch', async (route) => {
      uploads += 1;
      if (uploads !== 2) return route.continue();
      // The server stores batch 2, then the Wi-Fi drops before its answer arrives.
      const stored = await route.fetch();
      expect(stored.status()).toBe(201);
      await context.setOffline(true);
      await route.abort('internetdisconnected');
      dropped();
    });

    await page.goto(`${env.server.url}/photographer-dashboard?tab=upload`);
    await page.getByLabel('School', { exact: true }).selectOption({ label: target.name });
    await page.getByLabel('Class', { exact: true }).selectOption({ label: `${target.className} (0 photos)` });
    await page.getByTestId('photo-input').setInputFiles(await makePhotos(30, 'SHOOT'));
    await page.getByRole('button', { name: 'Upload 30 Photos' }).click();

    await connectionDropped;
    await page.getByText('Waiting for the network', { exact: false }).first().waitFor({ timeout: 30_000 });
    expect(await photoCount(env.server.url, token, target.albumId)).toEqual({ total: 20, distinct: 20 });
    await page.getByText('20 photos waiting to upload.', { exact: false }).waitFor();

    // The staff chunks are not precached (parents never download them), so the reload happens with
    // the network back but the API still unreachable, as on a school Wi-Fi without its uplink.
    const unreachable = (route: { abort: (code: string) => Promise<void> }) => route.abort('internetdisconnected');
    await context.route('**/api/photos/upload-batch', unreachable);
    await context.route('**/api/albums/*/photos', unreachable);
    await context.setOffline(false);
    await page.reload();
    await page.getByText('20 photos waiting to upload.', { exact: false }).waitFor();
    await page.getByText(`${target.name} · ${target.className}`).waitFor();
    await page.getByText('Show files').click();
    expect(await page.locator('.queue-files li', { hasText: 'Uploaded' }).count()).toBe(10);
    expect(await page.locator('.queue-files li', { hasText: 'SHOOT_0011.JPG' }).textContent()).toContain('Sending');

    await context.unroute('**/api/photos/upload-batch', unreachable);
    await context.unroute('**/api/albums/*/photos', unreachable);
    await expect.poll(() => log.includes('toast:Upload Complete'), { timeout: 60_000 }).toBe(true);
    expect(await photoCount(env.server.url, token, target.albumId)).toEqual({ total: 30, distinct: 30 });
    // Batch 2 was found on the server, so only batch 3 went out after the drop.
    expect(uploads).toBeLessThanOrEqual(3);
    await context.close();
  });
});
