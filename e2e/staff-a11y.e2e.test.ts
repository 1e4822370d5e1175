/** Every staff screen (and each dashboard tab) passes axe-core with no serious or critical violation. */
import AxeBuilder from '@axe-core/playwright';
import { expect, it } from 'vitest';
import { STAFF_MSG } from '../api/contract/staff-screen-messages';
import type { Page } from 'playwright-core';
import { adminToken, api, signIn } from './staff-helpers';
import { describeJourney } from './support/journey-suite';

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

describeJourney('staff accessibility', (env) => {
  it('has no serious violations signed out', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${env.server.url}/photographer-dashboard`);
    await page.getByRole('heading', { name: 'Photographer Login' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${env.server.url}/photographer/recovery`);
    await page.getByRole('heading', { name: 'Authentication Required' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // The staff "Forgot password?" page and the page its e-mailed link opens.
    await page.goto(`${env.server.url}/photographer-dashboard`);
    await page.getByRole('link', { name: STAFF_MSG.forgotPasswordLink }).click();
    await page.getByRole('heading', { name: STAFF_MSG.staffForgotTitle }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${env.server.url}/photographer/reset-password?token=from-the-mail`);
    await page.getByRole('heading', { name: STAFF_MSG.staffResetTitle }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('has no serious violations on any staff screen', async () => {
    const token = await adminToken(env.server.url);
    const schools = await api<{ id: number; albums: { id: number }[] }[]>(env.server.url, '/api/schools', { token });
    const school = schools.find((candidate) => candidate.albums.length > 0)!;
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await signIn(page, env.server.url);
    const violations: Record<string, string[]> = {};

    for (const tab of ['Recent Orders', 'Schools', 'Price Lists', 'Photographers', 'Upload Photos', STAFF_MSG.changePasswordTab]) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByRole('tab', { name: tab, selected: true }).waitFor();
      await page.locator('.spinner').first().waitFor({ state: 'detached' }).catch(() => undefined);
      violations[`dashboard/${tab}`] = await seriousViolations(page);
    }

    const screens: [string, string][] = [
      ['/order-management', 'Order Management'],
      ['/order-management?view=batches', 'Print batches'],
      [`/photographer/schools/${school.id}/classes`, 'Classes'],
      ['/photographer/recovery', 'Photo Recovery Center'],
      ['/photographer/restore', 'Photo Restoration'],
    ];
    for (const [route, heading] of screens) {
      await page.goto(`${env.server.url}${route}`);
      await page.getByRole('heading', { name: heading }).first().waitFor();
      await page.locator('.spinner').first().waitFor({ state: 'detached' }).catch(() => undefined);
      if (route.includes('/classes')) {
        await page.locator('.class-select').first().click();
        await page.locator('.staff-photo').first().waitFor();
      }
      violations[route] = await seriousViolations(page);
    }
    expect(violations).toEqual(Object.fromEntries(Object.keys(violations).map((key) => [key, []])));
    await context.close();
  });
});
