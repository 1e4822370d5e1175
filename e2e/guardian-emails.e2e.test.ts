/**
 * A parent on a 360 px phone asks from the gallery to be e-mailed (docs/outreach.md, "Consent"),
 * confirms with the button of the page the e-mail's link opens ("Double opt-in"), has the cart mirrored once confirmed ("The
 * cart mirror"), and unsubscribes in one click ("Unsubscribe in one click"). The server's state is
 * read back at each step through GET /api/guardians/me and the unsubscribe GET, which changes nothing.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { GUARDIAN_CONSENT_MSG } from '../api/contract/guardian-consent';
import { GUARDIAN_PHONE_SCREEN_MSG } from '../api/contract/guardian-phone';
import { CONSENT, OUTREACH_MSG, OUTREACH_SCREEN_MSG } from '../api/contract/messages';
import type { GuardianMe, GuardianUnsubscribeResponse } from '../api/contract/outreach';
import { unsubscribePageUrl, unsubscribeToken } from '../api/src/outreach/unsubscribe';
import { addFirstPhoto, openClass, uniqueEmail, unlockSchool } from './support/journey';
import { PHONE, describeJourney } from './support/journey-suite';

/** The server's signing key, so the journey can build the unsubscribe link its e-mails carry. */
const SECRET = 'guardian-journey-secret-0123456789abcdefghij';
const SMALL_PHONE = { ...PHONE, viewport: { width: 360, height: 740 } };

/** axe-core's serious and critical findings on what the page shows now. */
async function seriousViolations(page: Page, label: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${label}: ${v.id} ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

const me = async (page: Page, baseUrl: string) => (await (await page.request.get(`${baseUrl}/api/guardians/me`)).json()) as GuardianMe;

describeJourney(
  'guardian e-mails',
  (env) => {
    it('subscribes from the gallery on a phone, confirms from the e-mail, mirrors the cart, and unsubscribes in one click', async () => {
      const context = await env.browser.newContext(SMALL_PHONE);
      const page = await context.newPage();
      const email = uniqueEmail('guardian');
      const problems: string[] = [];
      await unlockSchool(page, env.server.url, 'Demo Primary School', 'demo1234');
      await openClass(page, 'Class 1A');

      // The offer waits below the photos; its form is downloaded on the tap.
      const offer = page.getByRole('region', { name: CONSENT.offer });
      await offer.getByRole('button', { name: OUTREACH_SCREEN_MSG.offerOpen }).click();
      // SMS is offered first (docs/outreach.md, "The parents' screens"); this parent picks e-mail.
      await offer.getByRole('radio', { name: GUARDIAN_PHONE_SCREEN_MSG.byEmail }).click();
      const address = offer.getByRole('textbox', { name: OUTREACH_SCREEN_MSG.emailLabel });
      expect(await offer.getByRole('radio', { name: GUARDIAN_PHONE_SCREEN_MSG.byEmail }).isChecked()).toBe(true);
      await address.fill(email);
      const consent = offer.getByRole('checkbox', { name: CONSENT.text });
      expect(await consent.getAttribute('aria-checked')).toBe('false');
      expect(await offer.getByRole('checkbox', { name: CONSENT.marketing }).getAttribute('aria-checked')).toBe('false');

      // Without the tick the button still works, says why, and nothing is asked of the server.
      await offer.getByRole('button', { name: OUTREACH_SCREEN_MSG.subscribe }).click();
      await offer.getByRole('alert').filter({ hasText: OUTREACH_MSG.consentRequired }).waitFor();
      problems.push(...(await seriousViolations(page, 'subscribe form with an error')));
      expect(await me(page, env.server.url)).toMatchObject({ subscribed: false });

      await consent.click();
      await offer.getByRole('button', { name: OUTREACH_SCREEN_MSG.subscribe }).click();
      await offer.getByRole('heading', { name: OUTREACH_SCREEN_MSG.checkEmailTitle }).waitFor();
      await offer.getByText(OUTREACH_SCREEN_MSG.checkEmailSentTo(email)).waitFor();
      problems.push(...(await seriousViolations(page, 'check your e-mail')));
      // Nothing is wider than a 360 px screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      // Subscribing gave this browser nothing that names the address's guardian.
      expect(await me(page, env.server.url)).toEqual({ subscribed: false, confirmed: false, email: null, unsubscribed: false });

      // The e-mail's link opens the PWA's page, which changes nothing until its button is pressed.
      const mail = await env.mail.waitFor(email, 0, 20_000);
      const link = /https?:\/\/\S+\/confirm-email\?token=[^\s"<>]+/.exec(mail.text)?.[0];
      if (!link) throw new Error(`no confirmation link in:\n${mail.text}`);
      await page.goto(link.replace(/^https?:\/\/[^/]+/, env.server.url));
      await page.getByRole('heading', { name: GUARDIAN_CONSENT_MSG.pageTitle }).waitFor();
      problems.push(...(await seriousViolations(page, '/confirm-email')));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      expect(await me(page, env.server.url)).toMatchObject({ subscribed: false, confirmed: false });
      await page.getByRole('button', { name: GUARDIAN_CONSENT_MSG.confirmButton }).click();
      await page.getByRole('heading', { name: OUTREACH_SCREEN_MSG.confirmedTitle }).waitFor();
      await page.getByText(OUTREACH_SCREEN_MSG.confirmedUnsubscribe).waitFor();
      problems.push(...(await seriousViolations(page, '/confirm-email confirmed')));
      const confirmed = await me(page, env.server.url);
      expect(confirmed).toMatchObject({ subscribed: true, confirmed: true, unsubscribed: false });

      // Back in the gallery the offer has given way to one line, and the cart is mirrored.
      await page.goto(`${env.server.url}/school/demo-primary`);
      await openClass(page, 'Class 1A');
      await page.getByText(OUTREACH_SCREEN_MSG.subscribedAs(confirmed.email ?? '')).waitFor();
      expect(await page.getByRole('region', { name: CONSENT.offer }).count()).toBe(0);
      const mirrored = page.waitForResponse((response) => response.url().endsWith('/api/guardians/cart') && response.request().method() === 'PUT');
      await addFirstPhoto(page, [{ name: '10x15 Print', quantity: 2 }]);
      const put = await mirrored;
      expect(put.status()).toBe(200);
      expect(await put.json()).toEqual({ mirrored: true });
      // Ids and quantities of the cart on the phone, nothing else.
      const cart = await page.evaluate(() => JSON.parse(window.localStorage.getItem('cart') ?? '[]') as { photoId: number; productType: string; quantity: number }[]);
      expect(cart).toHaveLength(1);
      expect(put.request().postDataJSON()).toEqual({ items: [{ photoId: cart[0]!.photoId, productType: cart[0]!.productType, quantity: 2 }] });

      // The unsubscribe link every reminder carries (the confirmation itself is transactional and
      // has none): opening it is the one click. Fetching it (a mail scanner) changes nothing.
      const token = unsubscribeToken(SECRET, email);
      const lookup = async () => (await (await page.request.get(`${env.server.url}/api/guardians/unsubscribe?token=${encodeURIComponent(token)}`)).json()) as GuardianUnsubscribeResponse;
      expect(await lookup()).toMatchObject({ email, unsubscribed: false });
      await page.goto(unsubscribePageUrl(env.server.url, token));
      await page.getByRole('heading', { name: OUTREACH_SCREEN_MSG.unsubscribedTitle }).waitFor();
      await page.getByText(OUTREACH_SCREEN_MSG.unsubscribedFor(email)).waitFor();
      await page.getByText(OUTREACH_SCREEN_MSG.orderEmailsStill).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      problems.push(...(await seriousViolations(page, '/unsubscribe')));
      expect(await lookup()).toMatchObject({ email, unsubscribed: true });
      expect(await me(page, env.server.url)).toMatchObject({ subscribed: true, unsubscribed: true });

      // The gallery offers it again.
      await page.goto(`${env.server.url}/school/demo-primary`);
      await page.getByRole('region', { name: CONSENT.offer }).getByRole('button', { name: OUTREACH_SCREEN_MSG.offerOpen }).waitFor();
      expect(problems).toEqual([]);
      await context.close();
    });

    it('says a confirmation link that is not valid is invalid, and refuses a forged unsubscribe link', async () => {
      const context = await env.browser.newContext(SMALL_PHONE);
      const page = await context.newPage();
      // A link of an older e-mail, through the API: it only leads on to the page.
      await page.goto(`${env.server.url}/api/guardians/confirm?token=not-a-real-token`);
      await page.waitForURL('**/confirm-email?token=not-a-real-token');
      await page.getByRole('button', { name: GUARDIAN_CONSENT_MSG.confirmButton }).click();
      await page.getByRole('heading', { name: OUTREACH_SCREEN_MSG.invalidTitle }).waitFor();
      await page.getByRole('alert').filter({ hasText: OUTREACH_SCREEN_MSG.invalidWhat }).waitFor();
      await page.goto(`${env.server.url}/unsubscribe?token=forged.token`);
      await page.getByRole('alert').filter({ hasText: OUTREACH_SCREEN_MSG.linkInvalid }).waitFor();
      await context.close();
    });
  },
  { mail: true, serverEnv: { JWT_SECRET: SECRET } },
);
