/**
 * A parent on a 360 px phone opens their child's photos with the flyer's code, asks below them to
 * be told by SMS (docs/outreach.md, "Double opt-in: by phone"), gets one SMS with a 6-digit code
 * from the server through a real SMPP server (the test SMS centre), types a wrong code and is told
 * how many tries are left, then types the right one and sees the number confirmed; the gallery
 * then shows the partly hidden number instead of the offer. The server's state is read back
 * through GET /api/guardians/me.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { GUARDIAN_PHONE_MSG, GUARDIAN_PHONE_SCREEN_MSG as P } from '../api/contract/guardian-phone';
import { CONSENT, OUTREACH_SCREEN_MSG } from '../api/contract/messages';
import type { GuardianMe } from '../api/contract/outreach';
import { smsSegments } from '../api/contract/sms-text';
import type { Student } from '../api/contract/students';
import { adminToken, api } from './staff-helpers';
import { PHONE, describeJourney } from './support/journey-suite';

const SMALL_PHONE = { ...PHONE, viewport: { width: 360, height: 740 } };
const TYPED = '71 555 321';
const TO = '+26771555321';

async function seriousViolations(page: Page, label: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${label}: ${v.id} ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

const me = async (page: Page, baseUrl: string) => (await (await page.request.get(`${baseUrl}/api/guardians/me`)).json()) as GuardianMe;
const narrow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describeJourney(
  'consent by phone',
  (env) => {
    it('opens a child by code on a phone, subscribes by SMS, reads the code from the SMS, a wrong code then the right one, and sees the number confirmed', async () => {
      const base = env.server.url;
      const token = await adminToken(base);
      const schools = await api<{ id: number; slug: string; albums: { id: number; name: string }[] }[]>(base, '/api/schools', { token });
      const demo = schools.find((school) => school.slug === 'demo-primary')!;
      const classA = demo.albums.find((album) => album.name === 'Class 1A')!;
      const [child] = (await api<{ students: Student[] }>(base, `/api/albums/${classA.id}/students`, { method: 'POST', token, body: { students: [{ name: 'Boitumelo Sechele' }] } })).students as [Student];

      const context = await env.browser.newContext(SMALL_PHONE);
      const page = await context.newPage();
      const problems: string[] = [];
      // The flyer's QR code opens the child's photos.
      await page.goto(`${base}/code/${child.code}`);
      await page.waitForURL(`**/children?student=${child.id}`);
      await page.getByRole('tab', { name: 'Boitumelo Sechele', selected: true }).waitFor();

      // The offer waits below the photos; its form is downloaded on the tap, SMS first.
      const offer = page.getByRole('region', { name: CONSENT.offer });
      await offer.getByRole('button', { name: OUTREACH_SCREEN_MSG.offerOpen }).click();
      const number = offer.getByRole('textbox', { name: P.phoneLabel });
      await expect.poll(() => number.evaluate((input) => input === document.activeElement)).toBe(true);
      expect(await offer.getByRole('radio', { name: P.bySms }).isChecked()).toBe(true);
      expect(await number.getAttribute('type')).toBe('tel');
      await number.fill(TYPED);
      await offer.getByRole('checkbox', { name: CONSENT.text }).click();
      problems.push(...(await seriousViolations(page, 'subscribe form by SMS')));
      const before = env.smsc.messages.length;
      await offer.getByRole('button', { name: OUTREACH_SCREEN_MSG.subscribe }).click();

      // The code's step: a numeric keypad the phone can fill from the SMS.
      await offer.getByRole('heading', { name: P.codeTitle }).waitFor();
      await offer.getByText(P.codeSentTo('+267 7••• ••21')).waitFor();
      const code = offer.getByRole('textbox', { name: P.codeLabel });
      expect(await code.getAttribute('inputmode')).toBe('numeric');
      expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
      problems.push(...(await seriousViolations(page, 'code step')));
      expect(await narrow(page)).toBeLessThanOrEqual(360);
      // Subscribing gave this browser nothing that names the number's guardian.
      expect(await me(page, base)).toEqual({ subscribed: false, confirmed: false, email: null, unsubscribed: false });

      // One SMS, to that number, through the SMS centre: the code and nothing else.
      await env.smsc.waitFor(before + 1, 20_000);
      const sent = env.smsc.messages.slice(before).filter((message) => message.to === TO);
      expect(sent).toHaveLength(1);
      const text = sent[0]!.text;
      expect(smsSegments(text)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
      expect(text).not.toMatch(/https?:/);
      const digits = /^(\d{6}) is your Lesedi Photo Studio code/.exec(text)?.[1];
      if (!digits) throw new Error(`no code in: ${text}`);

      // A wrong code is said in words, with the tries left, beside the field.
      const wrong = String((Number(digits) + 1) % 1_000_000).padStart(6, '0');
      await code.fill(wrong);
      await offer.getByRole('button', { name: P.confirm }).click();
      await offer.getByText(GUARDIAN_PHONE_MSG.codeWrong(4)).waitFor();
      expect(await code.getAttribute('aria-invalid')).toBe('true');
      expect(await me(page, base)).toMatchObject({ subscribed: false });

      // The right one, typed with a space as it may be read out.
      await code.fill(`${digits.slice(0, 3)} ${digits.slice(3)}`);
      await offer.getByRole('button', { name: P.confirm }).click();
      await offer.getByRole('heading', { name: P.confirmedTitle }).waitFor();
      await offer.getByText(P.confirmedStop).waitFor();
      problems.push(...(await seriousViolations(page, 'number confirmed')));
      expect(await narrow(page)).toBeLessThanOrEqual(360);
      expect(await me(page, base)).toEqual({ subscribed: true, confirmed: true, email: null, phone: '+267 7••• ••21', unsubscribed: false });

      // Back later: the gallery says where the SMS go instead of offering again.
      await page.reload();
      await page.getByText(OUTREACH_SCREEN_MSG.subscribedAsPhone('+267 7••• ••21')).waitFor();
      expect(await page.getByRole('button', { name: OUTREACH_SCREEN_MSG.offerOpen }).count()).toBe(0);
      expect(problems).toEqual([]);
      await context.close();
    });
  },
  { sms: true, serverEnv: { BUSINESS_NAME: 'Lesedi Photo Studio' } },
);
