/**
 * Leaving or failing a payment (issue 29): back from the card page the cart is still there and the
 * checkout says an unpaid order exists; paying it again reuses its open payment request; after a
 * declined card the page says so without "Pending Payment" or the test-payment note, and Try Again
 * keeps the name, e-mail and student; an order replaced by a new one disappears from My Orders, and
 * an unpaid one there can be paid or cancelled.
 */
import { expect, it } from 'vitest';
import { DECLINED_CARD, addFirstPhoto, goToCheckout, openClass, toastWith, uniqueEmail, unlockSchool } from './support/journey';
import { api } from './staff-helpers';
import { PHONE, describeJourney } from './support/journey-suite';

describeJourney('leaving or failing a payment', (env) => {
  it('keeps the cart, offers to pay or cancel the unpaid order, and hides replaced attempts', async () => {
    const base = env.server.url;
    const email = uniqueEmail('unpaid');
    await api(base, '/api/auth/customer/register', { method: 'POST', body: { firstName: 'Mpho', lastName: 'Dube', email, password: 'family-pass', confirmPassword: 'family-pass' } });

    const context = await env.browser.newContext(PHONE);
    const page = await context.newPage();
    await page.goto(`${base}/customer/auth`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('family-pass');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/customer/orders');

    await unlockSchool(page, base, 'Demo Primary School', 'demo1234');
    await openClass(page, 'Class 1A');
    await addFirstPhoto(page, [{ name: '10x15 Print' }]);
    await goToCheckout(page);
    await page.getByLabel('Student name').fill('Kagiso Dube');
    await page.getByRole('button', { name: 'Place Order and Pay' }).click();
    await page.getByLabel('Card number').waitFor();
    const firstRequest = await page.locator('input[name="PAY_REQUEST_ID"]').first().inputValue();

    // Back from the card page: the cart is still there, and the unpaid order is named.
    await page.goBack();
    const notice = page.getByRole('status').filter({ hasText: 'has not been paid yet' });
    await notice.waitFor();
    const orderId = /Order #([0-9A-Z]{13})/.exec(await notice.innerText())![1]!;
    await page.locator('.cart-line', { hasText: '10x15 Print' }).waitFor();
    await page.getByRole('button', { name: /^Cart, 1 item/ }).waitFor();

    // Paying it again reuses its open request; the card is declined.
    await notice.getByRole('button', { name: `Pay Order #${orderId}` }).click();
    await page.getByLabel('Card number').waitFor();
    expect(await page.locator('input[name="PAY_REQUEST_ID"]').first().inputValue()).toBe(firstRequest);
    await page.getByLabel('Card number').fill(DECLINED_CARD);
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL(`**/order-confirmation/${orderId}**`, { timeout: 30_000 });
    await page.getByRole('heading', { name: 'Payment Declined' }).waitFor();
    await page.getByText('Payment failed', { exact: true }).waitFor();
    expect(await page.getByText('Pending Payment').count()).toBe(0);
    expect(await page.getByText('paid through the PayGate test gateway').count()).toBe(0);

    // Try Again keeps the name, e-mail and student.
    await page.getByRole('link', { name: 'Try Again' }).click();
    await page.getByRole('heading', { name: 'Complete Your Order' }).waitFor();
    expect(await page.getByLabel('Your name').inputValue()).toBe('Mpho Dube');
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    expect(await page.getByLabel('Student name').inputValue()).toBe('Kagiso Dube');
    await notice.waitFor();

    // A corrected student name is a new order: it replaces the unpaid one.
    await page.getByLabel('Student name').fill('Kagiso T. Dube');
    await page.getByRole('button', { name: 'Place Order and Pay' }).click();
    await page.getByLabel('Card number').waitFor();
    await page.goBack();
    await notice.waitFor();
    const replacement = /Order #([0-9A-Z]{13})/.exec(await notice.innerText())![1]!;
    expect(replacement).not.toBe(orderId);
    expect((await api<{ status: string }>(base, `/api/orders/${orderId}`)).status).toBe('cancelled');

    // My Orders: only the replacement, waiting for payment, with Pay Now and Cancel Order.
    await page.goto(`${base}/customer/orders`);
    await page.getByRole('heading', { name: `Order #${replacement}` }).waitFor();
    expect(await page.getByRole('heading', { name: `Order #${orderId}` }).count()).toBe(0);
    await page.getByText('1 photo, 1 product').waitFor();
    await page.getByRole('button', { name: 'Pay Now' }).waitFor();
    await page.getByRole('button', { name: 'Cancel Order' }).click();
    const confirm = page.getByRole('dialog', { name: `Cancel Order #${replacement}?` });
    await confirm.getByRole('button', { name: 'Cancel Order' }).click();
    await toastWith(page, `Order #${replacement} was cancelled`).waitFor();
    await page.getByRole('heading', { name: 'No Orders Yet' }).waitFor();
    await context.close();
  });
});
