/**
 * A school's Messages screen on a tablet (docs/outreach.md, "The staff's Messages screen"): an
 * admin opens it from the school's card, edits the schedule (a reminder swapped, a shorter sending
 * window) and sees it kept after a reload, reads the preview of who gets what and when in Botswana
 * time, with each message's SMS to a confirmed phone next to its e-mail (docs/sms.md, "The season
 * by SMS"), and sends a test of "Photos are online" to themselves, which arrives at the mail catcher.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { OUTREACH_MSG, SEASON_MSG } from '../api/contract/messages';
import { STAFF_MESSAGES_SCREEN_MSG as M } from '../api/contract/staff-screen-messages';
import { SMS_PREVIEW_MSG as S } from '../api/contract/season-sms-messages';
import { CONSENT } from '../api/contract/messages';
import { toastWith } from './support/journey';
import { ADMIN, adminToken, api, createSchoolAndClass, makePhotos, signIn, uploadBatch } from './staff-helpers';
import { describeJourney } from './support/journey-suite';

const TABLET = { viewport: { width: 1024, height: 768 }, hasTouch: true };

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id} ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** The page is no wider than the viewport at each width: a tablet held upright and sideways, and a phone. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const before = page.viewportSize()!;
  for (const width of [768, 1024, 390]) {
    await page.setViewportSize({ width, height: width < 700 ? 844 : 768 });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth, `page is ${scrollWidth}px wide in a ${innerWidth}px viewport`).toBeLessThanOrEqual(innerWidth);
  }
  await page.setViewportSize(before);
}

/** YYYY-MM-DD, `days` from today. */
const daysAhead = (days: number) => new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

describeJourney(
  "staff: a school's messages",
  (env) => {
    it('edits the schedule on a tablet, previews who gets what and when, and sends a test to the admin', async () => {
      const base = env.server.url;
      const token = await adminToken(base);
      const { schoolId, name, albumId, className } = await createSchoolAndClass(base, token, 'Messages');
      await api(base, `/api/schools/${schoolId}`, { method: 'PATCH', token, body: { closingDate: daysAhead(30) } });
      await api(base, `/api/albums/${albumId}/students`, { method: 'POST', token, body: { students: [{ name: 'Neo Kgosi', guardianEmail: 'neo.family@example.com' }] } });
      // The class is online once it has a photo (a school-password class is published from the start).
      expect((await uploadBatch(base, token, albumId, await makePhotos(1))).status).toBe(201);

      // A guardian whose phone entered its code follows the school (as the subscribe-by-phone flow leaves them).
      const phone = '+26771555123';
      const db = new Database(path.join(env.server.dataDir, 'app.sqlite'));
      try {
        const at = Date.now();
        const guardian = db
          .prepare('insert into guardians (email, phone, consent_version, consent_at, phone_confirmed_at, marketing, created_at, updated_at) values (null, ?, ?, ?, ?, 0, ?, ?)')
          .run(phone, CONSENT.version, at, at, at, at).lastInsertRowid;
        db.prepare('insert into guardian_follows (guardian_id, school_id, student_id, created_at, confirmed_at) values (?, ?, null, ?, ?)').run(guardian, schoolId, at, at);
      } finally {
        db.close();
      }

      const context = await env.browser.newContext(TABLET);
      const page = await context.newPage();
      await signIn(page, base);
      await page.getByRole('tab', { name: 'Schools' }).click();
      await page.getByRole('link', { name: M.openLabel(name) }).click();
      await page.getByRole('heading', { name: M.title(name) }).waitFor();
      await page.getByText(M.scheduleDefault).waitFor();

      // The schedule: no reminder 3 days before, one 10 days before, the window ends at 18:00.
      const form = page.getByRole('form', { name: M.scheduleHeading });
      await form.getByRole('button', { name: M.removeReminder(3) }).click();
      await form.getByLabel(M.addReminderLabel, { exact: true }).fill('10');
      await form.getByRole('button', { name: M.addReminder }).click();
      // A window that ends before it starts is refused where it is typed.
      await form.getByLabel(M.sendUntil, { exact: true }).fill('07:00');
      await form.getByRole('button', { name: M.saveSchedule }).click();
      await form.getByText(OUTREACH_MSG.windowOrder).waitFor();
      await form.getByLabel(M.sendUntil, { exact: true }).fill('18:00');
      await form.getByRole('button', { name: M.saveSchedule }).click();
      await toastWith(page, M.scheduleSavedTitle).waitFor();
      await page.getByText(M.scheduleCustom).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      // Kept: after a reload the form reads it back from the server.
      await page.reload();
      const reloaded = page.getByRole('form', { name: M.scheduleHeading });
      await reloaded.getByRole('list', { name: M.reminders }).waitFor();
      expect(await reloaded.getByRole('list', { name: M.reminders }).getByRole('listitem').allTextContents()).toEqual([`${M.reminderDay(10)}×`, `${M.reminderDay(7)}×`, `${M.reminderDay(1)}×`]);
      expect(await reloaded.getByLabel(M.sendUntil, { exact: true }).inputValue()).toBe('18:00');

      // The preview: three reminders before closing, each inside the new window (Botswana time).
      const preview = page.getByRole('table', { name: M.previewTable });
      await preview.waitFor();
      const reminders = preview.getByRole('row').filter({ hasText: OUTREACH_MSG.kindLabels.closing_reminder });
      expect(await reminders.count()).toBe(3);
      for (const when of await reminders.locator(`td[data-label="${M.columnWhen}"]`).allTextContents()) {
        const time = /, (\d\d:\d\d)$/.exec(when)?.[1];
        expect(time, `"${when}" has a time`).toBeDefined();
        expect(time! >= '08:00' && time! < '18:00', `${when} is inside 08:00-18:00`).toBe(true);
      }
      // "Photos are online" for the class reaches the class list's guardian address, for their child.
      const online = preview.getByRole('row').filter({ hasText: OUTREACH_MSG.kindLabels.photos_online }).filter({ hasText: className });
      await online.getByRole('button', { name: /recipient/ }).click();
      await preview.getByRole('list', { name: M.recipientsOf(OUTREACH_MSG.kindLabels.photos_online, className) }).getByText('neo.family@example.com').waitFor();
      await preview.getByRole('list', { name: M.recipientsOf(OUTREACH_MSG.kindLabels.photos_online, className) }).getByText(M.sourceLabels.roster).waitFor();
      // Next to the e-mail, its SMS: the confirmed phone, one GSM-7 segment and its estimated cost
      // (SMS_COST_THEBE, 25 thebe by default), and its text with the short links.
      const sms = online.locator(`td[data-label="${S.heading}"]`);
      await sms.getByText(S.recipients(1)).waitFor();
      await sms.getByText(S.segments(1, 'GSM-7')).waitFor();
      await sms.getByText(`${S.costLabel}: ${S.cost('P0.25')}`).waitFor();
      await preview.getByRole('list', { name: S.heading }).getByText(phone).waitFor();
      expect(await preview.locator('.sms-text').first().textContent()).toMatch(new RegExp(`photos are online: ${base}/s/\\S{12} Order by .*\nStop SMS: ${base}/s/\\S{12}$`));
      expect(await seriousViolations(page)).toEqual([]);

      // A test of "Photos are online" to the signed-in admin.
      const before = env.mail.messages.length;
      const test = page.getByRole('form', { name: M.testHeading });
      await test.getByLabel(M.testKind, { exact: true }).selectOption({ label: OUTREACH_MSG.kindLabels.photos_online });
      await test.getByRole('button', { name: M.sendTest }).click();
      await toastWith(page, M.testSentTitle).waitFor();
      const mail = await env.mail.waitFor(ADMIN.email, before, 20_000);
      expect(mail.subject).toContain(SEASON_MSG.photosOnlineSubject(name));

      await page.getByRole('heading', { name: M.statsHeading }).waitFor();
      await page.getByRole('heading', { name: M.guardiansHeading }).waitFor();
      await expectNoSidewaysScroll(page);
      await context.close();
    });
  },
  { mail: true },
);
