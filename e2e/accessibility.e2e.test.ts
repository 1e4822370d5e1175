/** axe-core on every parent route (and the gallery's dialogs): no serious or critical violations. */
import { expect, it } from 'vitest';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { openClass, unlockSchool } from './support/journey';
import { describeJourney } from './support/journey-suite';

async function seriousViolations(page: Page, label: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${label}: ${violation.id} (${violation.impact}) ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

describeJourney('accessibility', (env) => {
  it('has no serious or critical axe violations on the parent routes', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    const scan = async (path: string, ready: string) => {
      await page.goto(`${env.server.url}${path}`);
      await page.getByRole('heading', { name: ready }).first().waitFor();
      problems.push(...(await seriousViolations(page, path)));
    };

    await scan('/', 'Select Your School');
    await scan('/how-it-works', 'How It Works');
    await scan('/school/demo-primary', 'Demo Primary School');
    await scan('/school/no-such-school', 'School Not Found');
    await scan('/checkout', 'Complete Your Order');
    await scan('/order-confirmation/ABCDEFGHJK', 'Order Not Found');
    await scan('/customer/auth', 'Parent Account');
    await scan('/user-auth', 'Parent Account');
    await scan('/forgot-password', 'Reset Your Password');
    await scan('/reset-password', 'Invalid Reset Link');
    await scan('/reset-password?token=abc', 'Set New Password');
    await scan('/no-such-page', 'Page Not Found');

    // The unlocked gallery, its dialogs, a filled cart at checkout.
    await unlockSchool(page, env.server.url, 'Demo Primary School', 'demo1234');
    await page.locator('.class-card').first().waitFor();
    problems.push(...(await seriousViolations(page, 'gallery classes')));
    await page.getByRole('button', { name: /^Class 10C\b/ }).click();
    await page.getByRole('dialog', { name: 'Class Password Required' }).waitFor();
    problems.push(...(await seriousViolations(page, 'class password dialog')));
    await page.keyboard.press('Escape');
    await openClass(page, 'Class 1A');
    await page.getByRole('button', { name: /^Choose products for/ }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Select Products for Photo' });
    await dialog.getByRole('checkbox').first().click();
    problems.push(...(await seriousViolations(page, 'photo dialog')));
    await dialog.getByRole('button', { name: 'Add to Cart' }).click();
    await page.getByRole('heading', { name: 'Selected Photos (1)' }).waitFor();
    problems.push(...(await seriousViolations(page, 'gallery photos')));
    await page.getByRole('button', { name: /^Cart, 1 item/ }).click();
    await page.getByRole('heading', { name: 'Order Summary' }).waitFor();
    problems.push(...(await seriousViolations(page, 'checkout with cart')));

    // My Orders with a signed-in parent.
    await page.goto(`${env.server.url}/customer/auth`);
    await page.getByRole('tab', { name: 'Create Account' }).click();
    problems.push(...(await seriousViolations(page, 'create account tab')));
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Moyo');
    await page.getByLabel('Email').fill(`a11y.${Date.now()}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByLabel('Confirm password', { exact: true }).fill('secret123');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('heading', { name: 'No Orders Yet' }).waitFor();
    problems.push(...(await seriousViolations(page, '/customer/orders')));

    // The mobile drawer.
    await page.setViewportSize({ width: 390, height: 800 });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).waitFor();
    problems.push(...(await seriousViolations(page, 'mobile drawer')));

    expect(problems).toEqual([]);
    await context.close();
  });
});
