/**
 * A parent's cart on a phone through a patchy connection (docs/packages-and-coupons.md, "A coupon
 * stays with the cart"; docs/payments.md, "Offline"): a coupon entered at checkout is still applied
 * after going back to the gallery, a reload and a spell offline, and the total shown is the one the
 * gateway is asked for; a checkout whose code this device never fetched still opens offline with the
 * cart and says paying needs a connection, then turns into the checkout once back online, with no
 * reload; so does the installed app started cold at /checkout offline, whether or not it has the
 * checkout's code.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { COUPON_MSG } from '../api/contract/messages';
import { OFFLINE_CART_MSG } from '../api/contract/offline-cart';
import { PARENT_CHECKOUT_MSG } from '../api/contract/parent-checkout';
import type { Order } from '../api/contract/orders';
import { formatPula } from '../api/contract/money';
import { addFirstPhoto, fillCheckout, goToCheckout, openClass, uniqueEmail, unlockSchool } from './support/journey';
import { adminToken, api } from './staff-helpers';
import { PHONE, controlledPage, describeJourney } from './support/journey-suite';

const totalShown = async (page: Page) => (await page.locator('.total-row').last().textContent()) ?? '';

/**
 * With something in the cart the header fetches the checkout's code, and the service worker keeps
 * it: waits until it has, so what a test then does to the caches is not undone by a late answer.
 */
async function checkoutCodeKept(page: Page): Promise<void> {
  const assets = () =>
    page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => new URL(entry.name))
        .filter((url) => url.origin === location.origin && /^\/assets\/[\w-]+\.(js|css)$/.test(url.pathname))
        .map((url) => url.pathname),
    );
  await expect.poll(async () => (await assets()).some((file) => /^\/assets\/checkout-[\w-]+\.js$/.test(file)), { timeout: 30_000 }).toBe(true);
  const checkout = (await assets()).find((file) => /^\/assets\/checkout-[\w-]+\.js$/.test(file))!;
  // Its import resolves once the checkout and everything it imports have arrived (a string, so the
  // test runner leaves this import() alone).
  await page.evaluate(`import(${JSON.stringify(checkout)}).then(() => true)`);
  const kept = async () => {
    const files = await assets();
    const found = await page.evaluate((paths) => Promise.all(paths.map(async (file) => (await caches.match(file)) !== undefined)), files);
    return found.every(Boolean);
  };
  await expect.poll(kept, { timeout: 30_000 }).toBe(true);
}

describeJourney('the cart keeps its coupon and works offline', (env) => {
  it('a coupon survives the gallery, a reload and a spell offline, and the total shown is the total charged', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const demo = (await api<{ id: number; slug: string }[]>(base, '/api/schools', { token })).find((school) => school.slug === 'demo-primary')!;
    const code = `KEEP-${Date.now().toString(36).toUpperCase()}`;
    await api(base, '/api/coupons', { method: 'POST', token, body: { code, schoolId: demo.id, kind: 'amount', value: '5.00', maxUses: 5 } });

    const { context, page } = await controlledPage(env, PHONE);
    await unlockSchool(page, base, 'Demo Primary School', 'demo1234');
    await openClass(page, 'Class 1A');
    await addFirstPhoto(page, [{ name: 'Digital Copy' }]);
    await goToCheckout(page);
    await page.getByLabel(COUPON_MSG.codeLabel).fill(code.toLowerCase());
    await page.getByRole('button', { name: COUPON_MSG.apply }).click();
    await page.getByText(COUPON_MSG.applied(code)).waitFor();
    await page.getByText(COUPON_MSG.discountLine(code), { exact: true }).waitFor();
    const withCoupon = await totalShown(page);
    expect(withCoupon).toMatch(/^TotalP\d+\.\d\d$/);

    // Back to the gallery and into the cart again.
    await page.goBack();
    await page.getByRole('button', { name: 'Back to Classes' }).waitFor();
    await goToCheckout(page);
    await page.getByText(COUPON_MSG.applied(code)).waitFor();
    await expect.poll(() => totalShown(page)).toBe(withCoupon);

    // A reload.
    await page.reload();
    await page.getByText(COUPON_MSG.applied(code)).waitFor();
    await expect.poll(() => totalShown(page)).toBe(withCoupon);

    // Offline, and a reload offline: still applied; the sum shown is not passed off as the total.
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Complete Your Order' }).waitFor();
    await page.getByText(COUPON_MSG.applied(code)).waitFor();
    await page.getByText(OFFLINE_CART_MSG.total).waitFor();
    expect(await page.getByText(OFFLINE_CART_MSG.cart, { exact: false }).count()).toBeGreaterThan(0);

    // Back online: quoted again, no reload; the order charges exactly the total shown.
    await context.setOffline(false);
    await page.getByText(COUPON_MSG.discountLine(code), { exact: true }).waitFor();
    await expect.poll(() => totalShown(page)).toBe(withCoupon);
    await fillCheckout(page, { name: 'Naledi Parent', email: uniqueEmail('coupon-kept'), student: 'Kagiso' });
    await page.getByRole('button', { name: 'Place Order and Pay' }).click();
    await page.getByLabel('Card number').waitFor({ timeout: 30_000 });
    const orderId = (await page.evaluate(() => JSON.parse(localStorage.getItem('unpaidOrders') ?? '[]')[0]?.orderId as string | undefined)) ?? '';
    expect(orderId).not.toBe('');
    const order = await api<Order>(base, `/api/orders/${orderId}`, { token });
    expect(order.couponCode).toBe(code);
    expect(`Total${formatPula(order.totalAmount)}`).toBe(withCoupon);
    await context.close();
  });

  it('a coupon that stopped applying is removed, saying which and why', async () => {
    const base = env.server.url;
    const token = await adminToken(base);
    const demo = (await api<{ id: number; slug: string }[]>(base, '/api/schools', { token })).find((school) => school.slug === 'demo-primary')!;
    const code = `GONE-${Date.now().toString(36).toUpperCase()}`;
    const coupon = await api<{ id: number }>(base, '/api/coupons', { method: 'POST', token, body: { code, schoolId: demo.id, kind: 'percent', value: 10, maxUses: 5 } });

    const context = await env.browser.newContext(PHONE);
    const page = await context.newPage();
    await unlockSchool(page, base, 'Demo Primary School', 'demo1234');
    await openClass(page, 'Class 1A');
    await addFirstPhoto(page, [{ name: 'Digital Copy' }]);
    await goToCheckout(page);
    await page.getByLabel(COUPON_MSG.codeLabel).fill(code);
    await page.getByRole('button', { name: COUPON_MSG.apply }).click();
    await page.getByText(COUPON_MSG.applied(code)).waitFor();

    // The studio withdraws the coupon; the parent comes back to the cart later.
    await api(base, `/api/coupons/${coupon.id}`, { method: 'DELETE', token });
    await page.reload();
    await page.getByText(PARENT_CHECKOUT_MSG.couponRemoved(code, COUPON_MSG.notValid)).waitFor();
    expect(await page.getByText(COUPON_MSG.applied(code)).count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('cartCoupon'))).toBeNull();
    await context.close();
  });

  it("offline, a checkout this device never fetched shows the cart and says paying needs a connection; back online it is the checkout, no reload", async () => {
    const { context, page } = await controlledPage(env, PHONE);
    await unlockSchool(page, env.server.url, 'Demo Primary School', 'demo1234');
    await openClass(page, 'Class 1A');
    await addFirstPhoto(page, [{ name: 'Digital Copy' }]);
    // This device never got the checkout's code (a first visit gone offline at once, or a new
    // version since): the worker's runtime cache and the browser's HTTP cache are emptied of it.
    await checkoutCodeKept(page);
    await page.evaluate(() => caches.delete('app-code-v1'));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');

    await context.setOffline(true);
    await page.reload();
    await page.getByRole('button', { name: 'Back to Classes' }).waitFor();
    await page.getByRole('button', { name: /^Cart, 1 item/ }).click();
    await page.getByRole('heading', { name: 'Complete Your Order' }).waitFor();
    await page.getByRole('status').filter({ hasText: OFFLINE_CART_MSG.cart }).waitFor();
    const cart = page.getByRole('region', { name: 'Your cart' });
    await cart.getByText('Digital Copy', { exact: true }).waitFor();
    await cart.getByText(OFFLINE_CART_MSG.total).waitFor();

    // Opened cold offline at /checkout: the installed app started again on its last screen, a new
    // window with nothing in memory.
    const cold = await context.newPage();
    await cold.goto(`${env.server.url}/checkout`);
    await cold.getByRole('heading', { name: 'Complete Your Order' }).waitFor();
    await cold.getByRole('status').filter({ hasText: OFFLINE_CART_MSG.cart }).waitFor();
    await cold.getByRole('region', { name: 'Your cart' }).getByText('Digital Copy', { exact: true }).waitFor();

    // Back online: the checkout itself, in the same page.
    for (const open of [page, cold]) await open.evaluate(() => ((window as unknown as { __samePage: boolean }).__samePage = true));
    await context.setOffline(false);
    for (const open of [cold, page]) {
      await open.getByLabel('Your name').waitFor({ timeout: 30_000 });
      await open.getByRole('button', { name: 'Place Order and Pay' }).waitFor();
      expect(await open.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    }
    await context.close();
  });

  it('the installed app opened cold at /checkout offline shows the cart and says paying needs a connection; back online it quotes, no reload', async () => {
    const { context, page } = await controlledPage(env, PHONE);
    await unlockSchool(page, env.server.url, 'Demo Primary School', 'demo1234');
    await openClass(page, 'Class 1A');
    await addFirstPhoto(page, [{ name: 'Digital Copy' }]);
    await goToCheckout(page);
    await page.getByRole('button', { name: 'Place Order and Pay' }).waitFor();
    await checkoutCodeKept(page);
    // The start-up restore of the cart from IndexedDB is kept too, for a start without a connection.
    const restoreKept = () =>
      page.evaluate(async () => (await (await caches.open('app-code-v1')).keys()).some((request) => /^\/assets\/hydrate-[\w-]+\.js$/.test(new URL(request.url).pathname)));
    await expect.poll(restoreKept, { timeout: 30_000 }).toBe(true);

    await context.setOffline(true);
    await page.close();
    const cold = await context.newPage();
    await cold.goto(`${env.server.url}/checkout`);
    await cold.getByRole('heading', { name: 'Complete Your Order' }).waitFor();
    await cold.getByText('Digital Copy', { exact: true }).first().waitFor();
    await cold.getByRole('status').filter({ hasText: OFFLINE_CART_MSG.cart }).waitFor();
    await cold.getByText(OFFLINE_CART_MSG.total).waitFor();

    await cold.evaluate(() => ((window as unknown as { __samePage: boolean }).__samePage = true));
    await context.setOffline(false);
    await cold.getByLabel('Your name').waitFor({ timeout: 30_000 });
    await expect.poll(() => cold.getByRole('status').filter({ hasText: OFFLINE_CART_MSG.cart }).count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => totalShown(cold), { timeout: 30_000 }).toMatch(/^TotalP\d+\.\d\d$/);
    expect(await cold.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    await context.close();
  });
});
