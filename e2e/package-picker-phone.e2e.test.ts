/**
 * Filling a package on a phone (issue 41, points 8 and 9; docs/packages-and-coupons.md, "Filling a
 * package"): the parent picks from thumbnails, not "Photo 4105" in drop-downs, and the two 10x15
 * prints of a package hold two different photos; the server prices the order and keeps each photo.
 */
import { expect, it } from 'vitest';
import { PACKAGE_MSG } from '../api/contract/messages';
import { PACKAGE_PICKER_MSG } from '../api/contract/package-picker';
import type { PriceList } from '../api/contract/price-lists';
import type { Order } from '../api/contract/orders';
import { formatPula, thebeToDecimal } from '../api/contract/money';
import { APPROVED_CARD, fillCheckout, goToCheckout, openClass, payWithCard, toastWith, uniqueEmail, unlockSchool } from './support/journey';
import { adminToken, api } from './staff-helpers';
import { PHONE, describeJourney } from './support/journey-suite';

describeJourney('filling a package on a phone', (env) => {
  it('picks a thumbnail for each print and download, two different photos for the two 10x15 prints', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const schools = await api<{ id: number; slug: string; priceListId: number }[]>(base, '/api/schools', { token });
    const demo = schools.find((school) => school.slug === 'demo-primary')!;
    const list = await api<PriceList>(base, `/api/price-lists/${demo.priceListId}`, { token });
    const priceOf = (name: string) => Math.round(Number(list.items.find((item) => item.productType === name)!.price) * 100);
    const packagePrice = priceOf('10x15 Print') * 2 + priceOf('Digital Copy') - 1000;
    await api<PriceList>(base, `/api/price-lists/${demo.priceListId}`, {
      method: 'PUT',
      token,
      body: {
        name: list.name,
        description: list.description,
        products: list.items.map((item) => ({ name: item.productType, description: item.description, price: item.price, kind: item.kind, size: item.size ?? '' })),
        packages: [
          {
            name: 'Grandparents Pack',
            price: thebeToDecimal(packagePrice),
            items: [
              { productName: '10x15 Print', quantity: 2 },
              { productName: 'Digital Copy', quantity: 1 },
            ],
          },
        ],
      },
    });

    const context = await env.browser.newContext(PHONE);
    const page = await context.newPage();
    await unlockSchool(page, base, 'Demo Primary School', 'demo1234');
    await openClass(page, 'Class 1A');
    await page.getByRole('listitem', { name: 'Grandparents Pack' }).getByRole('button', { name: `${PACKAGE_MSG.choosePhotos}: Grandparents Pack` }).click();
    const dialog = page.getByRole('dialog', { name: PACKAGE_MSG.fillTitle('Grandparents Pack') });

    // Thumbnails to pick from, the class's photos as the gallery shows them: no drop-down.
    const picker = dialog.getByRole('radiogroup', { name: PACKAGE_PICKER_MSG.pickFor('10x15 Print (1 of 2)') });
    const thumbnails = picker.getByRole('radio');
    await thumbnails.nth(2).waitFor();
    expect(await dialog.locator('select').count()).toBe(0);
    const galleryTiles = await page.locator('.photo-tile').count();
    expect(await thumbnails.count()).toBe(galleryTiles);
    // Each is a real image the server let this family see, laid out for a phone: no wider than the screen.
    await expect.poll(() => thumbnails.nth(0).locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const box = (await thumbnails.nth(0).boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(44);
    expect(await dialog.evaluate((node) => node.scrollWidth <= node.clientWidth)).toBe(true);

    // A tap per piece: the first 10x15, the second 10x15 (another photo), the digital copy.
    const photoOf = async (index: number) => Number(await thumbnails.nth(index).getAttribute('data-photo-id'));
    const [first, second] = [await photoOf(0), await photoOf(1)];
    const labelOf = async (index: number) => (await thumbnails.nth(index).getAttribute('aria-label'))!;
    const [firstLabel, secondLabel] = [await labelOf(0), await labelOf(1)];
    expect(firstLabel).toMatch(/^Photo \d+/);
    await thumbnails.nth(0).click();
    await dialog.getByRole('radiogroup', { name: PACKAGE_PICKER_MSG.pickFor('10x15 Print (2 of 2)') }).getByRole('radio', { name: secondLabel }).click();
    await dialog.getByRole('radiogroup', { name: PACKAGE_PICKER_MSG.pickFor('Digital Copy') }).getByRole('radio', { name: firstLabel }).click();
    await dialog.getByRole('button', { name: PACKAGE_PICKER_MSG.slot('10x15 Print (2 of 2)', secondLabel) }).waitFor();
    const add = dialog.getByRole('button', { name: PACKAGE_MSG.addPackage });
    await add.scrollIntoViewIfNeeded();
    await add.click();
    await toastWith(page, PACKAGE_MSG.added('Grandparents Pack')).waitFor();

    await goToCheckout(page);
    const line = page.locator('.cart-line', { hasText: 'Grandparents Pack' });
    // The cart names photos as families know them ("Photo 12"), without the child's name.
    const photoName = (label: string) => label.split(' · ')[0];
    await line.getByText(PACKAGE_MSG.packagePhotos(`${photoName(firstLabel)}, ${photoName(secondLabel)}`)).waitFor();
    await page.locator('.total-row', { hasText: formatPula(packagePrice, 'thebe') }).waitFor();
    await fillCheckout(page, { name: 'Lorato Parent', email: uniqueEmail('picker'), student: 'Kabelo' });
    const orderId = await payWithCard(page, APPROVED_CARD);
    await page.getByRole('heading', { name: 'Payment Successful' }).waitFor({ timeout: 30_000 });

    // The server priced the package and keeps each print's photo.
    const order = await api<Order>(base, `/api/orders/${orderId}`, { token });
    expect(order.totalAmount).toBe(thebeToDecimal(packagePrice));
    expect(order.items.map((item) => [item.productName, item.photoId, item.quantity])).toEqual([
      ['10x15 Print', first, 1],
      ['10x15 Print', second, 1],
      ['Digital Copy', first, 1],
    ]);
    await context.close();
  });
});
