/** Steps a parent takes, shared by the journeys: role and label selectors, no fixed sleeps. */
import type { Page } from 'playwright-core';

export const APPROVED_CARD = '4000000000000002';
export const DECLINED_CARD = '4000000000000036';

export async function unlockSchool(page: Page, baseUrl: string, schoolName: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel('School', { exact: true }).selectOption({ label: schoolName });
  await page.getByLabel('School Password').fill(password);
  await page.getByRole('button', { name: 'Access Photo Gallery' }).click();
  await toastWith(page, 'Access Granted').waitFor();
}

export async function openClass(page: Page, className: string, classPassword?: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${className}\\b`) }).click();
  if (classPassword) {
    const dialog = page.getByRole('dialog', { name: 'Class Password Required' });
    await dialog.getByLabel('Class password').fill(classPassword);
    await dialog.getByRole('button', { name: 'Access Photos' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }
  await page.getByRole('button', { name: 'Back to Classes' }).waitFor();
}

/** Opens the first photo and adds the named products (quantity 1, or the given quantity). */
export async function addFirstPhoto(page: Page, products: { name: string; quantity?: number }[]): Promise<void> {
  await page.getByRole('button', { name: /^Choose products for/ }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Select Products for Photo' });
  for (const product of products) {
    await dialog.getByRole('checkbox', { name: new RegExp(`^${product.name}`) }).click();
    if (product.quantity) await dialog.getByLabel(`Quantity of ${product.name}`).selectOption(String(product.quantity));
  }
  await dialog.getByRole('button', { name: 'Add to Cart' }).click();
  await toastWith(page, 'Added to Cart').waitFor();
}

export async function goToCheckout(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Cart, \d+ items?/ }).click();
  await page.getByRole('heading', { name: 'Complete Your Order' }).waitFor();
}

export async function fillCheckout(page: Page, details: { name: string; email: string; student: string }): Promise<void> {
  await page.getByLabel('Your name').fill(details.name);
  await page.getByLabel('Email').fill(details.email);
  await page.getByLabel('Student name').fill(details.student);
}

/** Submits the checkout form, pays on the sandbox page with `card`, and lands on the confirmation. */
export async function payWithCard(page: Page, card: string): Promise<string> {
  await page.getByRole('button', { name: 'Place Order and Pay' }).click();
  await page.getByLabel('Card number').waitFor();
  await page.getByLabel('Card number').fill(card);
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await page.waitForURL(/\/order-confirmation\/[A-Z0-9]+/, { timeout: 30_000 });
  const match = /\/order-confirmation\/([A-Z0-9]+)/.exec(page.url());
  return match?.[1] ?? '';
}

export const uniqueEmail = (label: string) => `${label}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;

/** A visible toast containing `text` (Radix also mirrors it into a live region, which is skipped). */
export const toastWith = (page: Page, text: string) => page.locator('.toast').filter({ hasText: text }).first();
