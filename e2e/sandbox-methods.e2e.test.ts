/**
 * The built-in sandbox's e-wallet and bank-transfer pages in a real browser (docs/payments.md,
 * "The built-in sandbox"): the method choice, labelled fields, the number check, and the return
 * page's auto-submit under the app's CSP. Requests are made straight at the sandbox, so this does
 * not depend on how the shop offers the methods.
 */
import { expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { signedInitiatePairs } from '../api/src/payments/paygate/checksum';
import { PUBLIC_TEST_PAYGATE_ID, PUBLIC_TEST_SECRET } from '../api/src/payments/paygate/codes';
import { describeJourney } from './support/journey-suite';

const RETURN_PATH = '/sandbox-return-check';

/** A request made the way the shop makes it, with PAY_METHOD when given; resolves what process.trans needs. */
async function initiate(baseUrl: string, reference: string, payMethod?: string): Promise<{ payRequestId: string; checksum: string }> {
  const pairs = signedInitiatePairs(
    {
      PAYGATE_ID: PUBLIC_TEST_PAYGATE_ID,
      REFERENCE: reference,
      AMOUNT: '7750',
      CURRENCY: 'BWP',
      RETURN_URL: `${baseUrl}${RETURN_PATH}`,
      TRANSACTION_DATE: '2025-01-15 08:30:00',
      LOCALE: 'en',
      COUNTRY: 'BWA',
      EMAIL: 'parent@example.test',
      ...(payMethod && { PAY_METHOD: payMethod }),
    },
    PUBLIC_TEST_SECRET,
  );
  const res = await fetch(`${baseUrl}/payweb3/initiate.trans`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(pairs).toString(),
  });
  const answer = new URLSearchParams(await res.text());
  const payRequestId = answer.get('PAY_REQUEST_ID');
  if (!payRequestId) throw new Error(`initiate refused: ${answer.toString()}`);
  return { payRequestId, checksum: answer.get('CHECKSUM') ?? '' };
}

/** The browser posts the two fields to process.trans, as the shop's redirect does. */
async function openGateway(page: Page, baseUrl: string, request: { payRequestId: string; checksum: string }): Promise<void> {
  await page.goto(`${baseUrl}/payweb3/autosubmit.js`);
  await page.evaluate(
    ({ action, fields }) => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = action;
      for (const [name, value] of Object.entries(fields)) {
        const input = document.createElement('input');
        input.type = 'hidden';
        input.name = name;
        input.value = value;
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    },
    { action: `${baseUrl}/payweb3/process.trans`, fields: { PAY_REQUEST_ID: request.payRequestId, CHECKSUM: request.checksum } },
  );
}

/** The fields the return page's script posts back to the shop. */
function returned(request: Request): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(request.postData() ?? ''));
}

describeJourney(
  'the sandbox’s e-wallet and bank-transfer pages',
  (env) => {
    it('choice, e-wallet number check, approve on the phone, and the return posts itself', async () => {
      const context = await env.browser.newContext();
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      const request = await initiate(env.server.url, 'ORD-E2E-EW');
      await openGateway(page, env.server.url, request);
      await page.getByRole('heading', { name: 'Choose how to pay' }).waitFor();
      const group = page.getByRole('group', { name: 'Payment method' });
      await group.getByRole('button', { name: /^Card/ }).waitFor();
      await group.getByRole('button', { name: /^Mobile money \(e-wallet\)/ }).click();

      await page.getByRole('heading', { name: 'Mobile money payment' }).waitFor();
      await page.getByLabel('Wallet', { exact: true }).selectOption('MyZaka');
      const number = page.getByLabel('Mobile number', { exact: true });
      expect(await number.getAttribute('inputmode')).toBe('tel');
      await number.fill('61 234 567');
      await page.getByRole('button', { name: 'Approve on the phone' }).click();
      await page.getByRole('alert').filter({ hasText: 'Enter a Botswana mobile number' }).waitFor();
      expect(await page.getByLabel('Mobile number', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByLabel('Wallet', { exact: true }).inputValue()).toBe('MyZaka');

      await page.getByLabel('Mobile number', { exact: true }).fill('+267 71 234 567');
      const back = page.waitForRequest((r) => r.url().endsWith(RETURN_PATH) && r.method() === 'POST');
      await page.getByRole('button', { name: 'Approve on the phone' }).click();
      expect(returned(await back)).toMatchObject({ PAY_REQUEST_ID: request.payRequestId, TRANSACTION_STATUS: '1' });
      expect(errors.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
      await context.close();
    });

    it('bank transfer: the reference to use, received (5) at once, then settled by the back office', async () => {
      const context = await env.browser.newContext();
      const page = await context.newPage();
      const request = await initiate(env.server.url, 'ORD-E2E-BT', 'BT');
      await openGateway(page, env.server.url, request);
      await page.getByRole('heading', { name: 'Bank transfer' }).waitFor();
      await page.getByText('ORD-E2E-BT', { exact: true }).last().waitFor();
      await page.getByText('BWP 77.50').first().waitFor();
      const back = page.waitForRequest((r) => r.url().endsWith(RETURN_PATH) && r.method() === 'POST');
      await page.getByRole('button', { name: 'I have made the transfer' }).click();
      expect(returned(await back)).toMatchObject({ PAY_REQUEST_ID: request.payRequestId, TRANSACTION_STATUS: '5' });

      const settle = (outcome: string) =>
        fetch(`${env.server.url}/payweb3/sandbox/settle`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ PAY_REQUEST_ID: request.payRequestId, OUTCOME: outcome }).toString(),
        });
      const settled = await settle('approve');
      expect(settled.status).toBe(200);
      expect(await settled.text()).toBe('Settled: TRANSACTION_STATUS=1');
      expect((await settle('approve')).status).toBe(409);
      await context.close();
    });
  },
  { serverEnv: { PAYMENT_METHODS: 'card,ewallet,bank_transfer', SANDBOX_FINAL_NOTIFY: 'none' } },
);
