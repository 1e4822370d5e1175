/**
 * The photo dialog on a phone (issue 29): Add to Cart stays in view and no toast covers it; arrows,
 * the keyboard and a swipe move between photos; the cart takes a quantity (two prints of one
 * photo); a product without a description shows none; photos are "Photo 12", not file names.
 */
import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { openClass, toastWith, unlockSchool } from './support/journey';
import { PHONE, describeJourney } from './support/journey-suite';

const inView = async (page: Page, locator: Locator) => {
  const box = (await locator.boundingBox())!;
  const viewport = page.viewportSize()!;
  return box.y >= 0 && box.y + box.height <= viewport.height;
};
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describeJourney('the photo dialog on a phone', (env) => {
  it('keeps the actions in view, browses photos, and orders two prints of one photo', async () => {
    const base = env.server.url;
    const context = await env.browser.newContext(PHONE);
    const page = await context.newPage();
    await unlockSchool(page, base, 'Demo Primary School', 'demo1234');
    await openClass(page, 'Class 1A');
    await page.getByRole('button', { name: /^Choose products for/ }).first().waitFor();
    const count = await page.getByRole('button', { name: /^Choose products for/ }).count();
    expect(count).toBeGreaterThan(3);
    // Families see "Photo 12", never the camera's file names.
    const labels = await page.getByRole('button', { name: /^Choose products for/ }).evaluateAll((tiles) => tiles.map((tile) => tile.textContent + ' ' + tile.getAttribute('aria-label')));
    for (const label of labels) expect(label).not.toMatch(/IMG|\.jpe?g|\.png/i);
    expect(labels[0]).toMatch(/Choose products for ([^,]+, )?Photo \d+$/);
    await page.getByRole('button', { name: /^Choose products for/ }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Select Products for Photo' });
    const addToCart = dialog.getByRole('button', { name: 'Add to Cart' });
    await dialog.getByRole('checkbox').first().waitFor();

    // Add to Cart is on screen with every product listed, and the Access Granted toast is not over it.
    expect(await inView(page, addToCart)).toBe(true);
    const granted = toastWith(page, 'Access Granted');
    if (await granted.isVisible()) expect(overlaps((await granted.boundingBox())!, (await addToCart.boundingBox())!)).toBe(false);

    // Arrows, the keyboard and a swipe browse the class.
    await dialog.getByText(`1 of ${count}`).waitFor();
    const first = await dialog.locator('.dialog-description').innerText();
    expect(first).toMatch(/^Photo \d+$/);
    await dialog.getByRole('button', { name: 'Next photo' }).click();
    await dialog.getByText(`2 of ${count}`).waitFor();
    expect(await dialog.locator('.dialog-description').innerText()).not.toBe(first);
    await dialog.getByRole('button', { name: 'Previous photo' }).press('ArrowRight');
    await dialog.getByText(`3 of ${count}`).waitFor();
    await dialog.locator('.preview-frame').evaluate((frame) => {
      const at = (x: number) => [new Touch({ identifier: 1, target: frame, clientX: x, clientY: 200 })];
      frame.dispatchEvent(new TouchEvent('touchstart', { touches: at(100), changedTouches: at(100), bubbles: true }));
      frame.dispatchEvent(new TouchEvent('touchend', { touches: [], changedTouches: at(300), bubbles: true }));
    });
    await dialog.getByText(`2 of ${count}`).waitFor();

    // One print of this photo into the cart; in the cart it becomes two.
    await dialog.getByRole('checkbox', { name: /^10x15 Print/ }).click();
    expect(await inView(page, addToCart)).toBe(true);
    await addToCart.click();
    await toastWith(page, 'Added to Cart').waitFor();
    const selected = page.locator('.card', { has: page.getByRole('heading', { name: 'Selected Photos (1)' }) });
    await selected.getByRole('combobox', { name: /^Quantity of 10x15 Print/ }).selectOption('2');
    await selected.locator('.total-row').getByText('P50.00').waitFor();
    expect(await selected.locator('.cart-line').innerText()).toMatch(/Photo \d+/);
    expect(await selected.locator('.cart-line').innerText()).not.toMatch(/IMG|\.jpe?g/i);

    // The checkout keeps the quantity, and can change it again.
    await page.getByRole('button', { name: /^Cart, 1 item/ }).click();
    await page.getByRole('heading', { name: 'Complete Your Order' }).waitFor();
    const quantity = page.getByRole('combobox', { name: /^Quantity of 10x15 Print/ });
    expect(await quantity.inputValue()).toBe('2');
    await quantity.selectOption('3');
    await page.locator('.total-row').getByText('P75.00').waitFor();

    // A school selling the built-in products: no "No description available".
    await unlockSchool(page, base, 'Sunrise Academy', 'sunrise1');
    await page.locator('.class-card').first().click();
    await page.getByRole('button', { name: /^Choose products for/ }).first().click();
    await dialog.getByRole('checkbox').first().waitFor();
    expect(await dialog.getByText('No description available').count()).toBe(0);
    await context.close();
  });
});
