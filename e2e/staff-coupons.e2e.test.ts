/**
 * The staff Coupons tab (issue 25, docs/packages-and-coupons.md "Coupons"), on a tablet: a
 * photographer creates a coupon for one school, is told at the field when a second one takes the
 * same code, edits the first (a bigger percentage, no limit on uses, every school) and deletes it
 * after being asked. Each step is read back through the API as well.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Coupon } from '../api/contract/coupons';
import { COUPON_MSG } from '../api/contract/messages';
import { COUPON_SCREEN_MSG as M } from '../api/contract/staff-screen-messages';
import { toastWith } from './support/journey';
import { adminToken, api, createSchoolAndClass, signIn } from './staff-helpers';
import { describeJourney } from './support/journey-suite';

const TABLET = { viewport: { width: 820, height: 1180 }, hasTouch: true };

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id} ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

describeJourney('staff coupons', (env) => {
  it('creates a coupon for one school, refuses its code twice, edits it and deletes it', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const { schoolId, name: schoolName } = await createSchoolAndClass(base, token, 'Coupons');
    const code = `SPRING-${Date.now()}`;
    const context = await env.browser.newContext(TABLET);
    const page = await context.newPage();
    await signIn(page, base);

    await page.getByRole('tab', { name: M.tab }).click();
    await page.getByRole('heading', { name: M.title }).waitFor();
    await page.getByRole('button', { name: M.newCoupon }).click();
    let form = page.getByRole('form', { name: M.createTitle });
    await form.getByRole('option', { name: schoolName }).waitFor({ state: 'attached' });
    expect(await seriousViolations(page)).toEqual([]);

    // Nothing is sent until the fields are right.
    await form.getByLabel(M.code).fill(code.toLowerCase());
    await form.getByLabel(M.valuePercent).fill('150');
    await form.getByRole('button', { name: M.create }).click();
    await form.getByText(COUPON_MSG.percentInvalid).waitFor();

    await form.getByLabel(M.valuePercent).fill('10');
    await form.getByLabel(M.school).selectOption({ label: schoolName });
    await form.getByLabel(M.minOrder).fill('100');
    await form.getByLabel(M.startsOn).fill('2026-01-01');
    await form.getByLabel(M.endsOn).fill('2099-12-31');
    await form.getByLabel(M.maxUses).fill('50');
    await form.getByLabel(M.oncePer).selectOption({ label: M.oncePerLabels.email });
    await form.getByRole('checkbox', { name: M.excludesPackages }).click();
    await form.getByRole('button', { name: M.create }).click();
    await toastWith(page, M.created(code)).waitFor();
    await form.waitFor({ state: 'hidden' });

    const table = page.getByRole('table', { name: M.tableLabel });
    let row = table.getByRole('row').filter({ hasText: code });
    await row.getByText('10%').waitFor();
    await row.getByText(schoolName).waitFor();
    await row.getByText('P100.00').waitFor();
    await row.getByText('1 Jan 2026 to 31 Dec 2099').waitFor();
    await row.getByText('0 of 50 used').waitFor();
    await row.getByText(M.statusActive).waitFor();
    let saved = (await api<Coupon[]>(base, '/api/coupons', { token })).find((coupon) => coupon.code === code)!;
    expect(saved).toMatchObject({ schoolId, kind: 'percent', value: '10', minOrder: '100.00', startsOn: '2026-01-01', endsOn: '2099-12-31', maxUses: 50, oncePer: 'email', excludesPackages: true, usesPaid: 0, usesHeld: 0, active: true });

    // The same code again (in another case) is refused at the code field; the form stays open.
    await page.getByRole('button', { name: M.newCoupon }).click();
    form = page.getByRole('form', { name: M.createTitle });
    await form.getByLabel(M.code).fill(code.toLowerCase());
    await form.getByLabel(M.kind).selectOption({ label: M.kindAmount });
    await form.getByLabel(M.valueAmount).fill('25');
    await form.getByRole('button', { name: M.create }).click();
    await form.getByText(COUPON_MSG.codeTaken).waitFor();
    expect(await form.getByLabel(M.code).getAttribute('aria-invalid')).toBe('true');
    await form.getByRole('button', { name: M.cancel }).click();
    await form.waitFor({ state: 'hidden' });

    // Edit: 15% at every school, no limit on uses.
    await page.getByRole('button', { name: M.editLabel(code) }).click();
    form = page.getByRole('form', { name: M.editTitle(code) });
    expect(await form.getByLabel(M.valuePercent).inputValue()).toBe('10');
    expect(await form.getByLabel(M.maxUses).inputValue()).toBe('50');
    await form.getByLabel(M.valuePercent).fill('15');
    await form.getByLabel(M.school).selectOption({ label: M.allSchools });
    await form.getByLabel(M.maxUses).fill('');
    await form.getByRole('button', { name: M.save }).click();
    await toastWith(page, M.saved(code)).waitFor();
    row = table.getByRole('row').filter({ hasText: code });
    await row.getByText('15%').waitFor();
    await row.getByText(M.allSchools).waitFor();
    await row.getByText('0 used').waitFor();
    saved = (await api<Coupon[]>(base, '/api/coupons', { token })).find((coupon) => coupon.code === code)!;
    expect(saved).toMatchObject({ schoolId: null, value: '15', maxUses: null, minOrder: '100.00', oncePer: 'email', excludesPackages: true });
    expect(await seriousViolations(page)).toEqual([]);

    // Delete, after being asked.
    await row.getByRole('button', { name: M.deleteLabel(code) }).click();
    const ask = page.getByRole('dialog', { name: M.deleteQuestion });
    await ask.getByText(M.deleteWarning(code)).waitFor();
    await ask.getByRole('button', { name: M.deleteConfirm }).click();
    await toastWith(page, M.deleted(code)).waitFor();
    await table.getByRole('row').filter({ hasText: code }).waitFor({ state: 'detached' });
    expect((await api<Coupon[]>(base, '/api/coupons', { token })).some((coupon) => coupon.code === code)).toBe(false);
    await context.close();
  });
});
