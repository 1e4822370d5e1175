/**
 * Packages and coupons from the parent's side (docs/packages-and-coupons.md): the demo school's
 * price list gets a package ("Save P20.00") and the school a 10% coupon; the parent fills the
 * package with one photo (its one pose), enters the coupon in the cart, sees the server's total, pays in the sandbox,
 * and the confirmation shows the same total. Runs against the whole server: it needs the price
 * list packages, the quote and order pricing, and the coupons API.
 */
import { expect, it } from 'vitest';
import { COUPON_MSG, PACKAGE_MSG } from '../api/contract/messages';
import { PACKAGE_PICKER_MSG } from '../api/contract/package-picker';
import type { PriceList } from '../api/contract/price-lists';
import type { Order } from '../api/contract/orders';
import type { Coupon } from '../api/contract/coupons';
import { formatPula, thebeToDecimal } from '../api/contract/money';
import { APPROVED_CARD, fillCheckout, goToCheckout, openClass, payWithCard, toastWith, uniqueEmail, unlockSchool } from './support/journey';
import { adminToken, api } from './staff-helpers';
import { describeJourney } from './support/journey-suite';

describeJourney('packages and coupons', (env) => {
  it('fills a package, applies a coupon and pays the total the server quoted', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const schools = await api<{ id: number; slug: string; priceListId: number }[]>(base, '/api/schools', { token });
    const demo = schools.find((school) => school.slug === 'demo-primary')!;
    const list = await api<PriceList>(base, `/api/price-lists/${demo.priceListId}`, { token });
    const priceOf = (name: string) => Math.round(Number(list.items.find((item) => item.productType === name)!.price) * 100);
    // The package: one 15x20 print and one digital copy, P20 below their sum.
    const itemsValue = priceOf('15x20 Print') + priceOf('Digital Copy');
    const packagePrice = itemsValue - 2000;
    const saved = await api<PriceList>(base, `/api/price-lists/${demo.priceListId}`, {
      method: 'PUT',
      token,
      body: {
        name: list.name,
        description: list.description,
        products: list.items.map((item) => ({ name: item.productType, description: item.description, price: item.price, kind: item.kind, size: item.size ?? '' })),
        packages: [
          {
            name: 'Family Pack',
            price: thebeToDecimal(packagePrice),
            items: [
              { productName: '15x20 Print', quantity: 1 },
              { productName: 'Digital Copy', quantity: 1 },
            ],
            maxPoses: 1,
          },
        ],
      },
    });
    expect(saved.packages.map((pkg) => [pkg.name, pkg.price, pkg.savings])).toEqual([['Family Pack', thebeToDecimal(packagePrice), '20.00']]);
    const code = `PACK-${Date.now().toString(36).toUpperCase()}`;
    await api(base, '/api/coupons', { method: 'POST', token, body: { code, schoolId: demo.id, kind: 'percent', value: 10, maxUses: 5 } });
    // 10% off, rounded half up once (docs/packages-and-coupons.md, "The order of discounts").
    const discount = Math.floor((packagePrice * 10 + 50) / 100);
    const total = formatPula(packagePrice - discount, 'thebe');

    const context = await env.browser.newContext();
    const page = await context.newPage();
    await unlockSchool(page, base, 'Demo Primary School', 'demo1234');
    await openClass(page, 'Class 1A');

    // The package card: its contents and what it saves.
    const card = page.getByRole('listitem', { name: 'Family Pack' });
    await card.getByText('Includes: 1 x 15x20 Print, 1 x Digital Copy').waitFor();
    await card.getByText(PACKAGE_MSG.save('P20.00')).waitFor();
    await card.getByRole('button', { name: `${PACKAGE_MSG.choosePhotos}: Family Pack` }).click();

    const dialog = page.getByRole('dialog', { name: PACKAGE_MSG.fillTitle('Family Pack') });
    // One pose: one photo fills the whole package.
    await dialog.getByText(PACKAGE_MSG.posesLimit(1)).waitFor();
    await dialog.getByRole('radiogroup', { name: PACKAGE_PICKER_MSG.pickFor(PACKAGE_MSG.photoForAll) }).getByRole('radio').first().click();
    await dialog.getByRole('button', { name: PACKAGE_MSG.addPackage }).click();
    await toastWith(page, PACKAGE_MSG.added('Family Pack')).waitFor();

    // The cart: the package and its contents, then the coupon (typed in lower case) and the server's total.
    await goToCheckout(page);
    await page.locator('.cart-line', { hasText: 'Family Pack' }).getByText('Includes: 1 x 15x20 Print, 1 x Digital Copy').waitFor();
    await page.getByLabel(COUPON_MSG.codeLabel).fill(code.toLowerCase());
    await page.getByRole('button', { name: COUPON_MSG.apply }).click();
    await page.getByText(COUPON_MSG.applied(code)).waitFor();
    await page.getByText(COUPON_MSG.discountLine(code), { exact: true }).waitFor();
    await page.locator('.total-row', { hasText: total }).waitFor();

    await fillCheckout(page, { name: 'Lorato Parent', email: uniqueEmail('package'), student: 'Kabelo' });
    const orderId = await payWithCard(page, APPROVED_CARD);
    await page.getByRole('heading', { name: 'Payment Successful' }).waitFor({ timeout: 30_000 });
    await page.getByText(total).first().waitFor();

    // The order as the server keeps it: one package line, the coupon's discount, the total paid.
    const order = await api<Order>(base, `/api/orders/${orderId}`, { token });
    expect([order.totalAmount, order.subtotal, order.couponCode, order.couponDiscount, order.paymentStatus]).toEqual([
      thebeToDecimal(packagePrice - discount),
      thebeToDecimal(packagePrice),
      code,
      thebeToDecimal(discount),
      'completed',
    ]);
    expect(order.packages.map((pkg) => [pkg.name, pkg.totalPrice, pkg.itemsValue])).toEqual([['Family Pack', thebeToDecimal(packagePrice), thebeToDecimal(itemsValue)]]);
    // The package's contents are ordinary lines of the order, priced by the package.
    expect(order.items.map((item) => [item.productName, item.quantity, item.totalPrice]).sort()).toEqual([
      ['15x20 Print', 1, '0.00'],
      ['Digital Copy', 1, '0.00'],
    ]);
    const coupons = await api<Coupon[]>(base, `/api/coupons?schoolId=${demo.id}`, { token });
    expect(coupons.find((coupon) => coupon.code === code)?.usesPaid).toBe(1);
    await context.close();
  });
});
