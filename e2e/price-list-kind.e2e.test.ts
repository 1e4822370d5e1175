/**
 * Print or digital is chosen in the price list editor (issue 29): a photographer creates a list
 * with a "Soft copy (JPEG by e-mail)" set to Digital and a print with its size, the card shows each
 * product's kind, and editing the list keeps them.
 */
import { expect, it } from 'vitest';
import { toastWith } from './support/journey';
import { adminToken, api, signIn } from './staff-helpers';
import { describeJourney } from './support/journey-suite';

describeJourney('price list product kinds', (env) => {
  it('sets a product to digital and a print to its size in the editor', async () => {
    const base = env.server.url;
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await signIn(page, base);
    const name = `Kinds ${Date.now()}`;

    await page.getByRole('tab', { name: 'Price Lists' }).click();
    await page.getByRole('button', { name: 'Create Price List' }).click();
    await page.getByLabel('Price list name').fill(name);
    const first = page.getByRole('group', { name: 'Product 1' });
    await first.getByLabel('Product name').fill('Soft copy (JPEG by e-mail)');
    await first.getByLabel('Price (P)').fill('20');
    await first.getByLabel('Kind').selectOption('digital');
    // A digital product has no print size.
    expect(await first.getByLabel('Print size').isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Add Product' }).click();
    const second = page.getByRole('group', { name: 'Product 2' });
    await second.getByLabel('Product name').fill('Glossy Print');
    await second.getByLabel('Price (P)').fill('30');
    expect(await second.getByLabel('Kind').inputValue()).toBe('print');
    await second.getByLabel('Print size').fill('10x15 cm');
    await page.getByRole('button', { name: 'Create Price List', exact: true }).last().click();
    await toastWith(page, 'Price List Created').waitFor();

    const card = page.locator('.staff-cards li', { hasText: name });
    await card.getByText('Soft copy (JPEG by e-mail) · Digital').waitFor();
    await card.getByText('Glossy Print · Print 10x15 cm').waitFor();
    const token = await adminToken(base);
    const lists = await api<{ name: string; items: { productType: string; kind: string; size: string | null }[] }[]>(base, '/api/price-lists', { token });
    expect(lists.find((list) => list.name === name)!.items.map((item) => [item.productType, item.kind, item.size])).toEqual([
      ['Soft copy (JPEG by e-mail)', 'digital', null],
      ['Glossy Print', 'print', '10x15 cm'],
    ]);

    await card.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('form', { name: 'Edit price list' });
    expect(await edit.getByRole('group', { name: 'Product 1' }).getByLabel('Kind').inputValue()).toBe('digital');
    expect(await edit.getByRole('group', { name: 'Product 2' }).getByLabel('Print size').inputValue()).toBe('10x15 cm');
    await context.close();
  });
});
