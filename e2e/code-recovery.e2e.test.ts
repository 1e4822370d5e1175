/**
 * The photographer, on a tablet, puts the guardian's mobile number on the child's roster row (a
 * landline refused on the field; the number shown in the roster's column). Then a parent on a
 * phone who lost the flyer (docs/sms.md, "Codes recovered by phone"): at the school's
 * gallery, where the flyer's code is typed, "Lost your code? Get it by SMS" opens a small form; the
 * mobile number the school has for the child is typed; the page says, as it would for any number,
 * that an SMS is on its way. The SMS is the real one, taken by the test SMS centre over SMPP; its
 * link opens the code page, which unlocks the child and shows the child's photos.
 */
import { expect, it } from 'vitest';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import type { Student } from '../api/contract/students';
import { CODE_RECOVERY_MSG } from '../api/contract/code-recovery';
import { smsSegments } from '../api/contract/sms-text';
import { STUDENT_PHONE_MSG } from '../api/contract/code-recovery';
import { PHONE_MSG } from '../api/contract/phone';
import { toastWith } from './support/journey';
import { adminToken, api, signIn } from './staff-helpers';
import { PHONE, controlledPage, describeJourney } from './support/journey-suite';

const TO = '+26774555111';
/** A photographer's tablet, upright. */
const TABLET = { viewport: { width: 820, height: 1180 }, hasTouch: true };

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

describeJourney(
  'a lost code, recovered by SMS',
  (env) => {
    it('the roster\'s guardian phone on a tablet; then, from the code form on a phone: "Lost your code?", the number, the SMS, its link, the child\'s photos', async () => {
      const base = env.server.url;
      const token = await adminToken(base);
      const schools = await api<{ id: number; slug: string; albums: { id: number; name: string }[] }[]>(base, '/api/schools', { token });
      const demo = schools.find((school) => school.slug === 'demo-primary')!;
      const classA = demo.albums.find((album) => album.name === 'Class 1A')!;
      await api(base, '/api/albums/' + classA.id + '/students', { method: 'POST', token, body: { students: [{ name: 'Other Child', guardianPhone: '74 555 222' }] } });

      // The photographer, on a tablet, adds the child with the guardian's mobile number: a landline is
      // refused on the field, the mobile number is kept and shown in the roster's column.
      const staffContext = await env.browser.newContext(TABLET);
      try {
        const staffPage = await staffContext.newPage();
        await signIn(staffPage, base);
        await staffPage.goto(`${base}/photographer/schools/${demo.id}/classes`);
        await staffPage.getByRole('button', { name: /^Class 1A/ }).click();
        await staffPage.getByRole('tab', { name: 'Students' }).click();
        const add = staffPage.getByRole('form', { name: 'Add a student' });
        await add.getByLabel('Student name').fill('Kagiso Ṱhabo');
        const guardianPhone = add.getByLabel(`${STUDENT_PHONE_MSG.column} (optional)`);
        expect(await guardianPhone.getAttribute('inputmode')).toBe('tel');
        await guardianPhone.fill('391 2345');
        await add.getByRole('button', { name: 'Add Student' }).click();
        await add.getByText(PHONE_MSG.notMobile).waitFor();
        await guardianPhone.fill('74 555 111');
        await add.getByRole('button', { name: 'Add Student' }).click();
        await toastWith(staffPage, 'Kagiso Ṱhabo').waitFor();
        const roster = staffPage.getByRole('table', { name: 'Students of Class 1A' });
        const row = roster.getByRole('row', { name: /Kagiso Ṱhabo/ });
        await row.getByText('+267 74 555 111', { exact: true }).waitFor();
        expect(await seriousViolations(staffPage)).toEqual([]);
      } finally {
        await staffContext.close();
      }
      const kagiso = (await api<Student[]>(base, `/api/albums/${classA.id}/students`, { token })).find((student) => student.name === 'Kagiso Ṱhabo')!;
      expect(kagiso.guardianPhone).toBe(TO);
      const photos = await api<{ id: number }[]>(base, `/api/albums/${classA.id}/photos`, { token });
      const own = photos.slice(0, 2).map((photo) => photo.id);
      await api(base, '/api/photos/student', { method: 'PUT', token, body: { photoIds: own, studentId: kagiso.id } });
      await api(base, `/api/schools/${demo.id}`, { method: 'PATCH', token, body: { accessMode: 'student_codes' } });

      const { context, page } = await controlledPage(env, PHONE);
      try {
        // Where the flyer's code is typed: the school's gallery asks for it.
        await page.goto(`${base}/school/demo-primary`);
        await page.getByText("Enter the code from your child's flyer.").waitFor();
        // The small form is not part of the page until asked for.
        const scripts = () => page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name).filter((name) => name.endsWith('.js')));
        const before = await scripts();
        expect(await page.getByLabel(CODE_RECOVERY_MSG.phoneLabel).count()).toBe(0);
        await page.getByRole('button', { name: CODE_RECOVERY_MSG.lost }).click();
        const phone = page.getByLabel(CODE_RECOVERY_MSG.phoneLabel);
        await phone.waitFor();
        expect((await scripts()).length).toBeGreaterThan(before.length);
        expect(await phone.getAttribute('inputmode')).toBe('tel');
        expect(await phone.getAttribute('autocomplete')).toBe('tel');
        expect(await seriousViolations(page)).toEqual([]);

        await phone.fill('74 555 111');
        await page.getByRole('button', { name: CODE_RECOVERY_MSG.submit }).click();
        await page.getByRole('status').filter({ hasText: CODE_RECOVERY_MSG.answer }).waitFor();

        // The SMS the SMS centre took: one segment, the child's name in GSM letters, the code, one link.
        await expect.poll(() => env.smsc.messages.filter((message) => message.to === TO).length, { timeout: 20_000 }).toBe(1);
        const sms = env.smsc.messages.find((message) => message.to === TO)!;
        expect(smsSegments(sms.text)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
        expect(sms.text).toContain('Kagiso Thabo');
        expect(sms.text).toContain(kagiso.code);
        const links = sms.text.match(new RegExp(`${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/s/[A-Za-z0-9_-]+`, 'g')) ?? [];
        expect(links).toHaveLength(1);
        expect(env.smsc.messages.some((message) => message.to === '+26774555222')).toBe(false);

        // The parent taps the link: the code page unlocks the child and opens their photos.
        await page.goto(links[0]!);
        await page.waitForURL(`**/children?student=${kagiso.id}`);
        const region = page.getByRole('region', { name: 'Photos of Kagiso Ṱhabo' });
        await region.getByRole('button', { name: /^Choose products for/ }).first().waitFor();
        expect(await region.getByRole('button', { name: /^Choose products for/ }).count()).toBe(own.length);
        const shown = await page.locator('img.protected').evaluateAll((images) => images.map((image) => (image as HTMLImageElement).getAttribute('src')));
        for (const id of own) expect(shown).toContain(`/api/images/${id}/thumbnail`);
      } finally {
        await context.close();
      }
    });
  },
  { sms: true },
);
