/**
 * Photo recovery after originals vanish from storage: the auth gate, the diagnostics list,
 * restoration by uploading a file with the same name, and the cleanup of what is still missing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { KEEP_PAID_MSG } from '../api/contract/messages';
import { toastWith } from './support/journey';
import { adminToken, api, makeJpeg, signIn } from './staff-helpers';
import { describeJourney } from './support/journey-suite';

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
}

describeJourney('photo recovery', (env) => {
  it('gates the recovery screens behind staff login', async () => {
    const page = await env.browser.newPage();
    for (const route of ['/photographer/recovery', '/photographer/restore']) {
      await page.goto(`${env.server.url}${route}`);
      await page.getByRole('heading', { name: 'Authentication Required' }).waitFor();
    }
    await page.getByRole('link', { name: 'Go to Login' }).click();
    await page.getByRole('heading', { name: 'Photographer Login' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/photographer/dashboard');
    await page.close();
  });

  it('finds photos whose files are gone, restores one and cleans up the other', async () => {
    const originals = filesUnder(path.join(env.server.dataDir, 'storage', 'originals'));
    for (const file of originals.slice(0, 2)) fs.rmSync(file);
    const token = await adminToken(env.server.url);
    const report = await api<{ missingPhotos: { originalName: string; albumId: number }[] }>(env.server.url, '/api/photos/missing', { token });
    expect(report.missingPhotos).toHaveLength(2);
    const [restoreName, cleanupName] = report.missingPhotos.map((photo) => photo.originalName);

    const page = await env.browser.newPage();
    await signIn(page, env.server.url);
    await page.goto(`${env.server.url}/photographer/recovery`);
    await page.getByRole('tab', { name: 'Diagnostics', selected: true }).waitFor();
    await page.getByText('with a missing file').waitFor();
    await page.locator('.missing-list', { hasText: restoreName! }).waitFor();
    expect(await page.locator('.missing-list li').count()).toBe(2);

    await page.goto(`${env.server.url}/photographer/restore`);
    await page.getByRole('tab', { name: 'Missing Photos', selected: true }).waitFor();
    await page.getByText('2 of').waitFor();
    await page.getByRole('tab', { name: 'Restore Photos' }).click();
    // A restore names the class its files belong to (docs/access.md, "Photos that orders need").
    await page.getByLabel(KEEP_PAID_MSG.restoreClassLabel).selectOption(String(report.missingPhotos[0]!.albumId));
    await page.getByLabel('Choose photos to upload').setInputFiles([{ name: restoreName!, mimeType: 'image/jpeg', buffer: await makeJpeg(7) }]);
    await page.getByRole('button', { name: 'Restore Photos' }).click();
    const results = page.getByRole('list', { name: 'Restoration results' });
    await results.getByText('Restored', { exact: true }).waitFor();
    await toastWith(page, 'Restoration Complete').waitFor();

    await page.goto(`${env.server.url}/photographer/recovery`);
    await page.getByRole('tab', { name: 'Recovery Options' }).click();
    await page.getByRole('button', { name: 'Clean Up Missing Photos' }).click();
    await page.getByRole('dialog', { name: 'Remove missing photos?' }).getByRole('button', { name: 'Remove Photos' }).click();
    await toastWith(page, 'Removed 1 photos with missing files').waitFor();
    expect((await api<{ missingPhotos: unknown[] }>(env.server.url, '/api/photos/missing', { token })).missingPhotos).toHaveLength(0);
    expect(cleanupName).toBeTruthy();
    await page.close();
  });
});
