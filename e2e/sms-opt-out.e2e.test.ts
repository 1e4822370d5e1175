/**
 * A parent on a 360 px phone opens the "Stop SMS" link at the end of a season SMS (docs/sms.md,
 * "Opting out"): the page it opens changes nothing (SMS apps and link previews fetch links) and
 * shows one button, whose press stops the SMS. The SMS is the real one: a guardian whose phone is
 * confirmed follows the demo school, the server's season job writes "photos are online" to the
 * phone, and its text's last link is followed. The server's state is read back through the
 * unsubscribe GET, which changes nothing, and its database.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { CONSENT } from '../api/contract/messages';
import type { GuardianUnsubscribeResponse } from '../api/contract/outreach';
import { SMS_STOP_MSG } from '../api/contract/season-sms-messages';
import { smsSegments } from '../api/contract/sms-text';
import { PHONE, describeJourney } from './support/journey-suite';

const SECRET = 'sms-opt-out-journey-secret-0123456789abcdef';
const SMALL_PHONE = { ...PHONE, viewport: { width: 360, height: 740 } };
const TO = '+26771987654';

async function seriousViolations(page: Page, label: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${label}: ${v.id} ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

describeJourney(
  'opting out of SMS',
  (env) => {
    it('opens the opt-out page from a season SMS\'s link on a phone: opening changes nothing, the button stops the SMS', async () => {
      const db = new Database(path.join(env.server.dataDir, 'app.sqlite'));
      let text: string;
      try {
        // A guardian whose phone entered its code, following the demo school.
        const school = db.prepare("select id from schools where slug = 'demo-primary'").get() as { id: number };
        const at = Date.now();
        const id = db
          .prepare('insert into guardians (email, phone, consent_version, consent_at, confirmed_at, phone_confirmed_at, unsubscribed_at, marketing, created_at, updated_at) values (null, ?, ?, ?, null, ?, null, 0, ?, ?)')
          .run(TO, CONSENT.version, at, at, at, at).lastInsertRowid;
        db.prepare('insert into guardian_follows (guardian_id, school_id, student_id, created_at, confirmed_at) values (?, ?, null, ?, ?)').run(id, school.id, at, at);
        // The season job (every minute) writes "photos are online" to the phone.
        await expect
          .poll(() => db.prepare("select count(*) as n from outbox_messages where channel = 'sms' and recipient = ? and kind = 'photos_online'").get(TO) as { n: number }, { timeout: 150_000, interval: 1000 })
          .toEqual({ n: 1 });
        text = (db.prepare("select text from outbox_messages where channel = 'sms' and recipient = ?").get(TO) as { text: string }).text;
      } finally {
        db.close();
      }
      expect(smsSegments(text)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
      const stop = /Stop SMS: (\S+)$/.exec(text)?.[1];
      if (!stop) throw new Error(`no opt-out link in: ${text}`);
      expect(stop.startsWith(`${env.server.url}/s/`)).toBe(true);

      const context = await env.browser.newContext(SMALL_PHONE);
      const page = await context.newPage();
      const problems: string[] = [];
      await page.goto(stop);
      await page.waitForURL('**/stop-sms?token=**');
      await page.getByRole('heading', { name: SMS_STOP_MSG.title }).waitFor();
      await page.getByText(SMS_STOP_MSG.prompt(TO)).waitFor();
      problems.push(...(await seriousViolations(page, '/stop-sms')));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      // Opening the page (and its GET) changed nothing.
      const token = new URL(page.url()).searchParams.get('token') ?? '';
      const lookup = async () => (await (await page.request.get(`${env.server.url}/api/guardians/unsubscribe?token=${encodeURIComponent(token)}`)).json()) as GuardianUnsubscribeResponse;
      expect(await lookup()).toMatchObject({ phone: TO, unsubscribed: false });
      const check = new Database(path.join(env.server.dataDir, 'app.sqlite'), { readonly: true });
      try {
        expect((check.prepare('select unsubscribed_at from guardians where phone = ?').get(TO) as { unsubscribed_at: number | null }).unsubscribed_at).toBeNull();
      } finally {
        check.close();
      }

      await page.getByRole('button', { name: SMS_STOP_MSG.button }).click();
      await page.getByRole('status').filter({ hasText: SMS_STOP_MSG.stopped(TO) }).waitFor();
      await page.getByText(SMS_STOP_MSG.orderSmsStill).waitFor();
      problems.push(...(await seriousViolations(page, '/stop-sms stopped')));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      expect(await lookup()).toMatchObject({ phone: TO, unsubscribed: true });

      // Opened again, it says the number is stopped already and offers no button.
      await page.reload();
      await page.getByText(SMS_STOP_MSG.alreadyStopped(TO)).waitFor();
      expect(await page.getByRole('button', { name: SMS_STOP_MSG.button }).count()).toBe(0);

      // A link this server did not make says so, with no button.
      await page.goto(`${env.server.url}/stop-sms?token=26771987654.forged`);
      await page.getByRole('alert').filter({ hasText: SMS_STOP_MSG.linkInvalid }).waitFor();
      expect(await page.getByRole('button', { name: SMS_STOP_MSG.button }).count()).toBe(0);
      expect(problems).toEqual([]);
      await context.close();
    });
  },
  { sms: true, serverEnv: { JWT_SECRET: SECRET } },
);
