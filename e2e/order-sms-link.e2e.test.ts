/**
 * A parent orders a digital copy on a phone and gives a mobile number at checkout (docs/sms.md,
 * "Transactional SMS"); once paid, the SMS the test SMS centre took has a short link that opens,
 * in another browser with no cookie of the shop (the parent's SMS app), the confirmation page with
 * the whole order and its download link, as the browser that ordered sees it; the file downloads.
 */
import { expect, it } from 'vitest';
import { ORDER_PHONE_MSG } from '../api/contract/order-sms';
import { smsSegments } from '../api/contract/sms-text';
import { APPROVED_CARD, addFirstPhoto, fillCheckout, goToCheckout, openClass, payWithCard, uniqueEmail, unlockSchool } from './support/journey';
import { PHONE, describeJourney } from './support/journey-suite';

const TO = '+26771234999';

describeJourney(
  "an order's SMS",
  (env) => {
    it('a paid order with a mobile number: one SMS whose link opens the confirmation and the download on the phone', async () => {
      const base = env.server.url;
      const ordering = await env.browser.newContext(PHONE);
      let orderId: string;
      try {
        const page = await ordering.newPage();
        await unlockSchool(page, base, 'Demo Primary School', 'demo1234');
        await openClass(page, 'Class 1A');
        await addFirstPhoto(page, [{ name: 'Digital Copy' }]);
        await goToCheckout(page);
        await fillCheckout(page, { name: 'Mpho Dube', email: uniqueEmail('sms-order'), student: 'Kagiso Dube' });
        const phone = page.getByLabel(ORDER_PHONE_MSG.label);
        await page.getByText(ORDER_PHONE_MSG.hint).waitFor();
        expect(await phone.getAttribute('inputmode')).toBe('tel');
        await phone.fill('71 234 999');
        orderId = await payWithCard(page, APPROVED_CARD);
        expect(orderId).not.toBe('');
      } finally {
        await ordering.close();
      }

      await expect.poll(() => env.smsc.messages.filter((message) => message.to === TO).length, { timeout: 20_000 }).toBe(1);
      const sms = env.smsc.messages.find((message) => message.to === TO)!;
      expect(sms.text).toContain(orderId);
      expect(smsSegments(sms.text)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
      const link = new RegExp(`${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/s/[A-Za-z0-9_-]+`).exec(sms.text)?.[0];
      expect(link).toBeTruthy();

      // The SMS app opens the link in a browser that has never seen the shop.
      const reading = await env.browser.newContext({ ...PHONE, acceptDownloads: true });
      try {
        const page = await reading.newPage();
        await page.goto(link!);
        await page.waitForURL(`**/order-confirmation/${orderId}`);
        expect(new URL(page.url()).search).toBe('');
        await page.getByRole('heading', { name: `Order #${orderId}` }).waitFor();
        await page.getByText('Mpho Dube', { exact: true }).waitFor();
        const download = page.getByRole('link', { name: /^Download Photo/ });
        await download.waitFor();
        const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
        expect(file.suggestedFilename()).toMatch(/^Demo Primary School - Photo.*\.(jpe?g|png)$/i);
      } finally {
        await reading.close();
      }
    });
  },
  { sms: true },
);
