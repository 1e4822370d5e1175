/**
 * The parent's main journey: school -> wrong then right password -> classes in numeric order ->
 * protected class -> photo dialog -> cart -> checkout validation -> sandbox payment -> Payment
 * Successful -> My Orders through the set-password link of the auto-created account.
 */
import { expect, it } from 'vitest';
import { resetLinkIn } from '../api/test/mail-catcher';
import { APPROVED_CARD, toastWith, addFirstPhoto, fillCheckout, goToCheckout, payWithCard, uniqueEmail } from './support/journey';
import { describeJourney } from './support/journey-suite';

describeJourney('placing an order', (env) => {
  it('takes a parent from the school password to a paid order in My Orders', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${env.server.url}/`);

    // Wrong, then right school password.
    await page.getByLabel('School', { exact: true }).selectOption({ label: 'Demo Primary School' });
    const submit = page.getByRole('button', { name: 'Access Photo Gallery' });
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('School Password').fill('wrong-password');
    await submit.click();
    await toastWith(page, 'Access Denied').waitFor();
    await toastWith(page, 'Invalid password. Please try again.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByLabel('School Password').fill('demo1234');
    await submit.click();
    await page.waitForURL('**/school/demo-primary');
    await toastWith(page, 'Welcome to Demo Primary School').waitFor();

    // Classes sorted numeric-aware and case-insensitively.
    await page.getByText('Select a class to view photos').waitFor();
    await page.locator('.class-card').first().waitFor();
    const names = await page.locator('.class-card strong').allTextContents();
    expect(names).toEqual(['choir', 'Class 1A', 'Class 2B', 'Class 10C']);

    // The protected class asks for its password; a wrong one keeps the dialog open.
    await page.getByRole('button', { name: /^Class 10C\b/ }).click();
    const classDialog = page.getByRole('dialog', { name: 'Class Password Required' });
    await classDialog.getByLabel('Class password').fill('nope');
    await classDialog.getByRole('button', { name: 'Access Photos' }).click();
    await classDialog.getByText('Incorrect password. Please try again.').waitFor();
    await classDialog.getByLabel('Class password').fill('class10');
    await classDialog.getByRole('button', { name: 'Access Photos' }).click();
    await page.getByRole('button', { name: 'Back to Classes' }).waitFor();
    expect(await page.getByText('Class 10C', { exact: true }).count()).toBe(1);
    await page.getByRole('heading', { name: 'Demo Primary School' }).waitFor();

    // Photo dialog: Add to Cart needs a selection; quantity and totals.
    await page.getByRole('button', { name: /^Choose products for/ }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Select Products for Photo' });
    expect(await dialog.getByRole('button', { name: 'Add to Cart' }).isDisabled()).toBe(true);
    await dialog.getByRole('img', { name: /Watermarked preview/ }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await addFirstPhoto(page, [{ name: '10x15 Print', quantity: 2 }]);
    await toastWith(page, '1 product(s) added to your cart').waitFor();
    await page.getByRole('heading', { name: 'Selected Photos (1)' }).waitFor();

    // Checkout: the form's validation messages, then pay with the approved card.
    await goToCheckout(page);
    await page.getByRole('button', { name: 'Place Order and Pay' }).click();
    await page.getByText('Name is required', { exact: true }).waitFor();
    await page.getByText('Valid email is required').waitFor();
    await page.getByText('Student name is required').waitFor();
    const email = uniqueEmail('parent');
    await fillCheckout(page, { name: 'Naledi Parent', email, student: 'Kagiso' });
    const orderId = await payWithCard(page, APPROVED_CARD);
    await page.getByRole('heading', { name: 'Payment Successful' }).waitFor({ timeout: 30_000 });
    await page.getByText(`Order #${orderId}`).waitFor();
    expect(await page.getByRole('button', { name: /^Cart,/ }).count()).toBe(0);

    // The checkout created an account; its set-password e-mail leads to My Orders.
    const link = resetLinkIn((await env.mail.waitFor(email, 0, 20_000)).text).href;
    await page.goto(link.replace(/^https?:\/\/[^/]+/, env.server.url));
    await page.getByLabel('New password', { exact: true }).fill('secret123');
    await page.getByLabel('Confirm password', { exact: true }).fill('secret123');
    await page.getByRole('button', { name: 'Set Password' }).click();
    // The first password of the account made at checkout is set, not reset (issue 29).
    await page.getByRole('heading', { name: 'Password set' }).waitFor();
    await page.waitForURL('**/customer/orders');
    await page.getByRole('heading', { name: 'My Orders' }).waitFor();
    await page.getByRole('heading', { name: `Order #${orderId}` }).waitFor();
    // Two prints of one photo are one photo and one product (issue 29 replaced 'N photo(s)').
    await page.getByText('1 photo, 1 product', { exact: true }).waitFor();
    await context.close();
  });
}, { mail: true });
