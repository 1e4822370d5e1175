/**
 * Paying the way Botswana pays (docs/payments.md, "Choosing a method" and "The confirmation
 * page"): on a phone, a parent picks mobile money, confirms on the sandbox's e-wallet page and sees
 * Payment Successful; a bank transfer that the bank has not confirmed yet shows "Awaiting payment
 * confirmation" with its reference and deadline, and turns to success once settled; with the
 * default configuration (card only) the checkout offers no choice.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { formatDate } from '../api/contract/format';
import { PARENT_CHECKOUT_MSG } from '../api/contract/parent-checkout';
import { APPROVED_CARD, addFirstPhoto, fillCheckout, goToCheckout, openClass, payWithCard, uniqueEmail, unlockSchool } from './support/journey';
import { PHONE, describeJourney } from './support/journey-suite';

const CHOOSE = 'How would you like to pay?';
/** The shop's account (README, "Configuration"): shown while a bank transfer is awaited. */
const BANK = { BANK_ACCOUNT_NAME: 'Lesedi School Photos (Pty) Ltd', BANK_NAME: 'First National Bank Botswana', BANK_ACCOUNT_NUMBER: '6200 1234 567', BANK_BRANCH_CODE: '282467' };

async function toCheckout(page: Page, baseUrl: string, label: string): Promise<void> {
  await unlockSchool(page, baseUrl, 'Demo Primary School', 'demo1234');
  await openClass(page, 'Class 1A');
  await addFirstPhoto(page, [{ name: 'Digital Copy' }]);
  await goToCheckout(page);
  await fillCheckout(page, { name: 'Naledi Parent', email: uniqueEmail(label), student: 'Kagiso' });
}

/** axe-core's serious and critical findings on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

const orderIdOf = (page: Page) => /\/order-confirmation\/([A-Z0-9]+)/.exec(page.url())?.[1] ?? '';

describeJourney(
  'choosing how to pay: mobile money and bank transfer',
  (env) => {
    it('on a phone, pays by mobile money confirmed on the phone and sees Payment Successful', async () => {
      const context = await env.browser.newContext(PHONE);
      const page = await context.newPage();
      await toCheckout(page, env.server.url, 'ewallet');
      const choice = page.getByRole('group', { name: CHOOSE });
      await choice.getByRole('radio', { name: 'Mobile money (e-wallet)' }).check();
      await page.getByText('You will pay by mobile money (e-wallet) on PayGate').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Place Order and Pay' }).click();

      // The sandbox's e-wallet page: a Botswana mobile number, then the phone's answer.
      await page.getByLabel('Mobile number', { exact: true }).waitFor({ timeout: 30_000 });
      await page.getByLabel('Mobile number', { exact: true }).fill('71 234 567');
      await page.getByRole('button', { name: 'Approve on the phone' }).click();
      await page.waitForURL(/\/order-confirmation\/[A-Z0-9]+/, { timeout: 30_000 });
      await page.getByRole('heading', { name: 'Payment Successful' }).waitFor({ timeout: 30_000 });

      const order = await page.evaluate(async (id) => (await fetch(`/api/orders/${id}`)).json(), orderIdOf(page));
      expect(order).toMatchObject({ paymentStatus: 'completed', paymentMethod: 'ewallet', gatewayPayMethod: 'EW' });
      await context.close();
    });

    it('paying again ("Pay Order") after leaving the wallet page keeps mobile money, still offering the others', async () => {
      const context = await env.browser.newContext(PHONE);
      const page = await context.newPage();
      await toCheckout(page, env.server.url, 'payagain');
      await page.getByRole('group', { name: CHOOSE }).getByRole('radio', { name: 'Mobile money (e-wallet)' }).check();
      await page.getByRole('button', { name: 'Place Order and Pay' }).click();
      await page.getByLabel('Mobile number', { exact: true }).waitFor({ timeout: 30_000 });

      // Back to the shop before confirming: the unpaid order is offered, its method as chosen.
      await page.goBack();
      const payOrder = page.getByRole('button', { name: /^Pay Order #/ });
      await payOrder.waitFor({ timeout: 30_000 });
      const choice = page.getByRole('group', { name: CHOOSE });
      expect(await choice.getByRole('radio', { name: 'Mobile money (e-wallet)' }).isChecked()).toBe(true);
      expect(await choice.getByRole('radio').count()).toBe(3);
      await payOrder.click();
      await page.getByLabel('Mobile number', { exact: true }).waitFor({ timeout: 30_000 });
      expect(await page.getByLabel('Card number').count()).toBe(0);
      await page.getByLabel('Mobile number', { exact: true }).fill('71 234 567');
      await page.getByRole('button', { name: 'Approve on the phone' }).click();
      await page.waitForURL(/\/order-confirmation\/[A-Z0-9]+/, { timeout: 30_000 });
      await page.getByRole('heading', { name: 'Payment Successful' }).waitFor({ timeout: 30_000 });
      const order = await page.evaluate(async (id) => (await fetch(`/api/orders/${id}`)).json(), orderIdOf(page));
      expect(order).toMatchObject({ paymentStatus: 'completed', paymentMethod: 'ewallet', gatewayPayMethod: 'EW', gatewayPayMethodDetail: 'Orange Money' });
      await context.close();
    });

    it('a bank transfer not yet confirmed shows the reference and the deadline, then success once the bank confirms', async () => {
      const context = await env.browser.newContext(PHONE);
      const page = await context.newPage();
      await toCheckout(page, env.server.url, 'transfer');
      await page.getByRole('group', { name: CHOOSE }).getByRole('radio', { name: 'Bank transfer' }).check();
      await page.getByRole('button', { name: 'Place Order and Pay' }).click();

      await page.getByRole('button', { name: 'I have made the transfer' }).click({ timeout: 30_000 });
      await page.waitForURL(/\/order-confirmation\/[A-Z0-9]+/, { timeout: 30_000 });
      await page.getByRole('heading', { name: 'Awaiting payment confirmation' }).waitFor({ timeout: 30_000 });
      const orderId = orderIdOf(page);
      const order = (await page.evaluate(async (id) => (await fetch(`/api/orders/${id}`)).json(), orderId)) as {
        awaitingPayment: { method: string; reference: string; deadline: string | null } | null;
      };
      expect(order.awaitingPayment?.method).toBe('bank_transfer');
      const { reference, deadline } = order.awaitingPayment!;
      expect(deadline).not.toBeNull();
      const status = page.getByRole('status').filter({ hasText: 'Awaiting payment confirmation' });
      await status.getByText(`using the reference ${reference} by ${formatDate(deadline!, 'dateTime')}`).waitFor();
      expect(await status.locator('dt', { hasText: 'Reference' }).locator('xpath=following-sibling::dd[1]').textContent()).toBe(reference);
      expect(await status.locator('dt', { hasText: 'Pay by' }).locator('xpath=following-sibling::dd[1]').textContent()).toBe(formatDate(deadline!, 'dateTime'));
      // Everything needed to pay, on the shop's own page: the account from configuration.
      await status.getByText(PARENT_CHECKOUT_MSG.bankDetailsTitle).waitFor();
      const detail = (term: string) => status.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]').textContent();
      expect(await detail(PARENT_CHECKOUT_MSG.bankAccountName)).toBe(BANK.BANK_ACCOUNT_NAME);
      expect(await detail(PARENT_CHECKOUT_MSG.bankName)).toBe(BANK.BANK_NAME);
      expect(await detail(PARENT_CHECKOUT_MSG.bankAccountNumber)).toBe(BANK.BANK_ACCOUNT_NUMBER);
      expect(await detail(PARENT_CHECKOUT_MSG.bankBranchCode)).toBe(BANK.BANK_BRANCH_CODE);
      expect(await page.getByRole('link', { name: 'Try Again' }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);

      // Still waiting after a few polls (the bank has not confirmed: SANDBOX_FINAL_NOTIFY=none).
      await page.waitForTimeout(4000);
      await page.getByRole('heading', { name: 'Awaiting payment confirmation' }).waitFor();

      // The sandbox's back office settles it; the page, polling every 3 s, turns to success.
      const payRequestId = new URL(page.url()).searchParams.get('PAY_REQUEST_ID') ?? '';
      expect(payRequestId).not.toBe('');
      const settled = await fetch(`${env.server.url}/payweb3/sandbox/settle`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ PAY_REQUEST_ID: payRequestId, OUTCOME: 'approve' }).toString(),
      });
      expect(settled.status).toBe(200);
      await page.getByRole('heading', { name: 'Payment Successful' }).waitFor({ timeout: 20_000 });
      await context.close();
    });

    it('how it works names the three enabled methods', async () => {
      const context = await env.browser.newContext(PHONE);
      const page = await context.newPage();
      await page.goto(`${env.server.url}/how-it-works`);
      await page
        .getByText('Check out with your contact details and pay by card (Visa, Mastercard and American Express), mobile money (e-wallet) or bank transfer on PayGate’s secure payment page.')
        .waitFor();
      await context.close();
    });
  },
  { serverEnv: { PAYMENT_METHODS: 'card,ewallet,bank_transfer', SANDBOX_FINAL_NOTIFY: 'none', ...BANK } },
);

describeJourney('card only, the default', (env) => {
  it('offers no choice of method and pays by card', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await toCheckout(page, env.server.url, 'cardonly');
    await page.getByText('You will pay by card (Visa, Mastercard and American Express) on PayGate').waitFor();
    expect(await page.getByRole('group', { name: CHOOSE }).count()).toBe(0);
    expect(await page.getByRole('radio').count()).toBe(0);
    await payWithCard(page, APPROVED_CARD);
    await page.getByRole('heading', { name: 'Payment Successful' }).waitFor({ timeout: 30_000 });

    await page.goto(`${env.server.url}/how-it-works`);
    await page.getByText('Check out with your contact details and pay by card (Visa, Mastercard and American Express) on PayGate’s secure payment page.').waitFor();
    expect(await page.getByText(/mobile money|bank transfer/i).count()).toBe(0);
    await context.close();
  });
});
