/**
 * A school after creation (issue 29): a photographer creates a school for private student codes
 * without a password (the form explains both modes), the card shows its mode, the class page asks
 * for a password before switching it to the school password, then the school is edited (name,
 * contact e-mail, closing date, price list, a rotated password) and a parent opens it with the new
 * password only. A parent who types a password for a codes school is told to use the flyer's code,
 * and that school's page shows the code form.
 */
import { expect, it } from 'vitest';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { MSG, STUDENT_MSG } from '../api/contract/messages';
import { STAFF_MSG } from '../api/contract/staff-screen-messages';
import { toastWith } from './support/journey';
import { adminToken, api, signIn } from './staff-helpers';
import { describeJourney } from './support/journey-suite';

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id} ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

describeJourney('editing a school and its access mode', (env) => {
  it('creates a codes school without a password, asks for one before the school password, and edits every field', async () => {
    const base = env.server.url;
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await signIn(page, base);
    const stamp = Date.now();
    const name = `Kgale Hill ${stamp}`;

    await page.getByRole('tab', { name: 'Schools' }).click();
    await page.getByRole('button', { name: 'Add School' }).click();
    const form = page.getByRole('form', { name: 'Create school' });
    // Each mode is explained where it is chosen.
    await form.getByText(STAFF_MSG.accessModeHints.school_password).waitFor();
    await form.getByText(STAFF_MSG.accessModeHints.student_codes).waitFor();
    await form.getByLabel('School name').fill(name);
    await form.getByLabel('Contact email').fill('office@kgale.example');
    // The default mode (school password) needs a password.
    await form.getByRole('button', { name: 'Create School' }).click();
    await form.getByText(MSG.schoolPasswordRequired).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // Private codes need none.
    await form.getByRole('radio', { name: /Private student codes/ }).check();
    await form.getByRole('button', { name: 'Create School' }).click();
    await toastWith(page, 'School Created').waitFor();
    const card = page.locator('.staff-cards li', { hasText: name });
    await card.getByText('Families get in with: Private student codes (each child)').waitFor();

    // Switching it to the school password on its class page asks for one first.
    await card.getByRole('link', { name: `Manage classes of ${name}` }).click();
    await page.getByLabel('How families get in').selectOption('school_password');
    const ask = page.getByRole('dialog', { name: STAFF_MSG.accessNeedsPasswordTitle });
    await ask.getByRole('button', { name: STAFF_MSG.accessSetPassword }).click();
    await ask.getByText(MSG.schoolPasswordRequired).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await ask.getByLabel('School password').fill('first-season');
    await ask.getByRole('button', { name: STAFF_MSG.accessSetPassword }).click();
    await toastWith(page, STAFF_MSG.accessPassword).waitFor();
    await ask.waitFor({ state: 'hidden' });
    expect(await page.getByLabel('How families get in').inputValue()).toBe('school_password');

    // Back on the dashboard: edit name, e-mail, closing date, price list and the password.
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    await page.getByRole('tab', { name: 'Schools' }).click();
    await page.locator('.staff-cards li', { hasText: name }).getByText('Families get in with: School password (whole school)').waitFor();
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('form', { name: `Edit ${name}` });
    expect(await edit.getByLabel('School name').inputValue()).toBe(name);
    expect(await edit.getByLabel('Contact email').inputValue()).toBe('office@kgale.example');
    await edit.getByText(STAFF_MSG.schoolPasswordHintKeep).waitFor();
    const renamed = `Kgale Hill Primary ${stamp}`;
    await edit.getByLabel('School name').fill(renamed);
    await edit.getByLabel('Contact email').fill('not-an-email');
    await edit.getByLabel('Closing date (optional)').fill('2031-11-28');
    // Under the date picker (whose format is the device's), the date as the school list writes it.
    await edit.getByText('Closes 28 Nov 2031').waitFor();
    await edit.getByLabel('Price list (optional)').selectOption({ label: 'Standard Package' });
    await edit.getByLabel('New school password (optional)').fill('12345');
    await edit.getByRole('button', { name: 'Save School' }).click();
    // The creation rules apply: nothing is sent until every field is right.
    await edit.getByText(MSG.validEmail).waitFor();
    await edit.getByText(MSG.passwordMin).waitFor();
    await edit.getByLabel('Contact email').fill('head@kgale.example');
    await edit.getByLabel('New school password (optional)').fill('second-season');
    await edit.getByRole('button', { name: 'Save School' }).click();
    await toastWith(page, 'School Saved').waitFor();
    const saved = page.locator('.staff-cards li', { hasText: renamed });
    await saved.getByText('head@kgale.example').waitFor();
    await saved.getByText('Standard Package').waitFor();
    await saved.getByText('Closes 28 Nov 2031').waitFor();
    // The web address did not follow the new name.
    await saved.getByText(`/kgale-hill-${stamp}`).waitFor();

    // A parent: the old password no longer opens the school, the new one does.
    await context.close();
    const family = await env.browser.newContext();
    const parent = await family.newPage();
    await parent.goto(`${base}/`);
    await parent.getByLabel('School', { exact: true }).selectOption({ label: renamed });
    await parent.getByLabel('School Password').fill('first-season');
    await parent.getByRole('button', { name: 'Access Photo Gallery' }).click();
    await toastWith(parent, MSG.invalidSchoolPassword).waitFor();
    await parent.getByLabel('School Password').fill('second-season');
    await parent.getByRole('button', { name: 'Access Photo Gallery' }).click();
    await toastWith(parent, 'Access Granted').waitFor();
    await parent.waitForURL(`${base}/school/kgale-hill-${stamp}`);
    await family.close();
  });

  it("tells a parent who types a password for a codes school to use the flyer's code, and shows that school the code form", async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const stamp = Date.now();
    const name = `Codes Only ${stamp}`;
    await api(base, '/api/schools', { method: 'POST', token, body: { name, slug: `codes-only-${stamp}`, contactEmail: 'office@codes.example', accessMode: 'student_codes' } });

    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.getByLabel('School', { exact: true }).selectOption({ label: name });
    await page.getByLabel('School Password').fill('whatever-they-typed');
    await page.getByRole('button', { name: 'Access Photo Gallery' }).click();
    await toastWith(page, STUDENT_MSG.schoolUsesCodes).waitFor();
    await page.getByRole('alert').filter({ hasText: STUDENT_MSG.schoolUsesCodes }).waitFor();
    expect(await toastWith(page, MSG.invalidSchoolPassword).count()).toBe(0);

    await page.goto(`${base}/school/codes-only-${stamp}`);
    await page.getByText("Enter the code from your child's flyer.").waitFor();
    expect(await page.getByLabel('School Password').count()).toBe(0);
    await context.close();
  });
});
