/** A declined card, and the closed school's digital-only rule: after the closing date only digital copies are sold. */
import { expect, it } from 'vitest';
import { DECLINED_CARD, addFirstPhoto, fillCheckout, goToCheckout, openClass, payWithCard, uniqueEmail, unlockSchool } from './support/journey';
import { describeJourney } from './support/journey-suite';

describeJourney('payment outcomes and the closing date', (env) => {
  it('a declined card shows Payment Declined and Try Again brings the items back', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await unlockSchool(page, env.server.url, 'Demo Primary School', 'demo1234');
    await openClass(page, 'Class 1A');
    await addFirstPhoto(page, [{ name: 'Digital Copy' }]);
    await goToCheckout(page);
    await fillCheckout(page, { name: 'Thabo Parent', email: uniqueEmail('declined'), student: 'Lesego' });
    await payWithCard(page, DECLINED_CARD);
    await page.getByRole('heading', { name: 'Payment Declined' }).waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).searchParams.get('TRANSACTION_STATUS')).toBe('2');
    await page.getByRole('link', { name: 'Track Your Orders' }).waitFor();
    await page.getByRole('link', { name: 'Try Again' }).click();
    await page.getByRole('heading', { name: 'Complete Your Order' }).waitFor();
    await page.getByText('Digital Copy', { exact: true }).waitFor();
    await context.close();
  });

  it('a closed school shows the banner and sells only digital products', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await unlockSchool(page, env.server.url, 'Sunrise Academy', 'sunrise1');
    await page.getByText('Print ordering has closed').waitFor();
    await page.getByText('The closing date for this school has passed. Only digital download options are now available for purchase.').waitFor();
    await page.locator('.class-card').first().click();
    await page.getByRole('button', { name: 'Back to Classes' }).waitFor();
    await page.getByRole('button', { name: /^Choose products for/ }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Select Products for Photo' });
    await dialog.getByRole('checkbox').first().waitFor();
    const products = await dialog.locator('.product-row strong').allTextContents();
    expect(products).toEqual(['Digital Copy']);
    await context.close();
  });
});
