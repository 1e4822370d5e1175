/**
 * A price change does not trap the cart (issue 29): staff raise the 15x20 print from P40 to P45
 * while it waits in a parent's cart. The checkout re-prices the cart from the server, on load and
 * after the 409 of an order placed with the old price, says what changed, and places the order
 * only once the parent accepts the new price. A product taken off the price list is shown as no
 * longer available and can be removed.
 */
import { expect, it } from 'vitest';
import type { PriceList } from '../api/contract/price-lists';
import { addFirstPhoto, fillCheckout, goToCheckout, openClass, toastWith, uniqueEmail, unlockSchool } from './support/journey';
import { adminToken, api } from './staff-helpers';
import { PHONE, describeJourney } from './support/journey-suite';

describeJourney('a price change while a print waits in the cart', (env) => {
  it('shows the new price, asks the parent to accept it, and drops a product no longer sold', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const schools = await api<{ slug: string; priceListId: number }[]>(base, '/api/schools', { token });
    const listId = schools.find((school) => school.slug === 'demo-primary')!.priceListId;
    const list = await api<PriceList>(base, `/api/price-lists/${listId}`, { token });
    const rows = list.items.map((item) => ({ name: item.productType, description: item.description, price: item.price }));
    const setList = (products: typeof rows) => api(base, `/api/price-lists/${listId}`, { method: 'PUT', token, body: { name: list.name, description: list.description, products } });

    const context = await env.browser.newContext(PHONE);
    const page = await context.newPage();
    await unlockSchool(page, base, 'Demo Primary School', 'demo1234');
    await openClass(page, 'Class 1A');
    await addFirstPhoto(page, [{ name: '15x20 Print' }, { name: 'Digital Copy' }]);
    await goToCheckout(page);
    await fillCheckout(page, { name: 'Mpho Dube', email: uniqueEmail('reprice'), student: 'Kagiso Dube' });
    const placeOrder = page.getByRole('button', { name: 'Place Order and Pay' });
    await expect.poll(() => placeOrder.isEnabled()).toBe(true);

    // Staff raise the price while the checkout is open: the order is refused, the cart re-priced.
    await setList(rows.map((row) => (row.name === '15x20 Print' ? { ...row, price: '45' } : row)));
    await placeOrder.click();
    const changed = page.getByRole('alert').filter({ hasText: 'Some prices changed' });
    await changed.getByText('15x20 Print: P40.00 → P45.00').waitFor();
    expect(await placeOrder.isDisabled()).toBe(true);
    await page.getByText('Accept the new prices to place your order.').first().waitFor();
    await page.locator('.cart-line', { hasText: '15x20 Print' }).getByText('P45.00').first().waitFor();
    await changed.getByRole('button', { name: 'Accept New Prices' }).click();
    await expect.poll(() => placeOrder.isEnabled()).toBe(true);

    // A reload keeps the new price (the cart itself was re-priced).
    await page.reload();
    await page.locator('.cart-line', { hasText: '15x20 Print' }).getByText('P45.00').first().waitFor();

    // The digital product is taken off the list: shown as such, removable; then the order goes.
    await setList(rows.filter((row) => !/digital/i.test(row.name)).map((row) => (row.name === '15x20 Print' ? { ...row, price: '45' } : row)));
    await page.reload();
    const gone = page.locator('.cart-line', { hasText: /Digital/ });
    await gone.getByText('No longer available for this school').waitFor();
    await page.getByRole('alert').filter({ hasText: 'no longer sold' }).waitFor();
    await fillCheckout(page, { name: 'Mpho Dube', email: uniqueEmail('reprice'), student: 'Kagiso Dube' });
    expect(await placeOrder.isDisabled()).toBe(true);
    await gone.getByRole('button', { name: /^Remove/ }).click();
    await expect.poll(() => placeOrder.isEnabled()).toBe(true);
    await placeOrder.click();
    await page.getByLabel('Card number').waitFor();
    expect(await toastWith(page, 'Prices in your cart have changed').count()).toBe(0);
    await context.close();
  });
});
