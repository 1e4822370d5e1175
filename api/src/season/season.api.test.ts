import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { startMailCatcher, type MailCatcher } from '../../test/mail-catcher';
import { addPhoto, createAlbum, createSchool, updateSchool } from '../../test/fixtures';
import { createShop, orderBody, parentFor, payThroughSandbox, standardLines, waitUntil } from '../../test/shop';
import { CART_REMINDER_MSG, GUARDIAN_MSG, SEASON_MSG } from '../../contract/messages';
import type { MessagesPreview, MessageStats } from '../../contract/outreach';
import { localDate, localDayStart } from '../outreach/send-window';
import { addGuardian, addStudent, addUnsubscribed, orderBy, outboxRows, publishedAt, setStatus, staffEmail } from './season.test-helpers';

const H = 3600_000;
const DAY = 24 * H;

/** The season timeline over HTTP and the job at chosen clocks, delivering to a real SMTP catcher (docs/outreach.md). */
describeApi('the season timeline', () => {
  let server: TestServer;
  let mail: MailCatcher;
  let staff: Client & { userId: number };
  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startTestServer({ SMTP_URL: mail.url });
    staff = await staffClient(server, 'photographer');
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  describe('the schedule and picture day', () => {
    it('answers the default until the school saves its own, and refuses bad input naming the field', async () => {
      const school = await createSchool(server);
      const url = `/api/schools/${school.id}/messages/schedule`;
      expect((await staff.get(url)).body).toEqual({ photosOnline: true, reminderDays: [7, 3, 1], sendFrom: '08:00', sendUntil: '19:00', isDefault: true });
      const saved = await staff.put(url, { photosOnline: false, reminderDays: [1, 10, 3, 3], sendFrom: '07:30', sendUntil: '18:00' });
      expect(saved.status).toBe(200);
      expect(saved.body).toEqual({ photosOnline: false, reminderDays: [10, 3, 1], sendFrom: '07:30', sendUntil: '18:00', isDefault: false });
      expect((await staff.get(url)).body).toEqual(saved.body);

      const badDays = await staff.put(url, { photosOnline: true, reminderDays: [0], sendFrom: '08:00', sendUntil: '19:00' });
      expect(badDays.status).toBe(400);
      expect(badDays.body.errors['reminderDays.0']).toBe('Reminder days must be whole numbers of days from 1 to 60');
      const badWindow = await staff.put(url, { photosOnline: true, reminderDays: [3], sendFrom: '19:00', sendUntil: '08:00' });
      expect(badWindow.status).toBe(400);
      expect(badWindow.body.errors.sendUntil).toBe('The sending window must end after it starts');
      const badClock = await staff.put(url, { photosOnline: true, reminderDays: [3], sendFrom: '8am', sendUntil: '19:00' });
      expect(badClock.body.errors.sendFrom).toBe('Use a time like 08:00');
      const missing = await staff.put(url, { reminderDays: [3], sendFrom: '08:00', sendUntil: '19:00' });
      expect(missing.body.errors.photosOnline).toBe('photosOnline must be true or false');
      // Nothing half-written: the saved schedule is unchanged.
      expect((await staff.get(url)).body).toEqual(saved.body);

      expect((await staff.get('/api/schools/999999/messages/schedule')).status).toBe(404);
      expect((await new Client(server.url).get(url)).status).toBe(401);
    });

    it('stores and answers a school\'s picture day, and refuses one that is not a date', async () => {
      const created = await staff.post('/api/schools', { name: 'Picture Day School', slug: `picture-${Date.now()}`, contactEmail: 'office@school.example', password: 'school-pass', pictureDay: '2026-11-20' });
      expect(created.status).toBe(201);
      expect(created.body.pictureDay).toBe('2026-11-20');
      const changed = await staff.patch(`/api/schools/${created.body.id}`, { pictureDay: '2026-11-24' });
      expect(changed.body.pictureDay).toBe('2026-11-24');
      expect((await staff.get(`/api/schools/by-id/${created.body.id}`)).body.pictureDay).toBe('2026-11-24');
      const bad = await staff.patch(`/api/schools/${created.body.id}`, { pictureDay: '24/11/2026' });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.pictureDay).toBe(SEASON_MSG.pictureDayFormat);
      expect((await staff.patch(`/api/schools/${created.body.id}`, { pictureDay: null })).body.pictureDay).toBeNull();
    });
  });

  describe('a season, from publish to closing, at chosen clocks', () => {
    /** Midnight in Botswana, 20 days ago: every planned time lies in the past, so the sender delivers at once. */
    const D0 = localDayStart(Date.now()) - 20 * DAY;
    let school: { id: number; name: string; slug: string };
    let classA: number;
    let classB: number;

    beforeAll(async () => {
      school = await createSchool(server, { closingDate: localDate(D0 + 8 * DAY) });
      classA = await createAlbum(server, school.id, { name: 'Class 1A' });
      classB = await createAlbum(server, school.id, { name: 'Class 2B' });
      await addPhoto(server, classA, 'IMG_0001.JPG');
      await addPhoto(server, classB, 'IMG_0002.JPG');
      const neo = await addStudent(server, classA, 'Neo Kgosi', 'roster-neo@example.test');
      const kagiso = await addStudent(server, classA, 'Kagiso Dube', 'gone@example.test');
      const mpho = await addStudent(server, classB, 'Mpho Sello');
      await addGuardian(server, { email: 'neo@example.test', schoolId: school.id, studentId: neo });
      await addGuardian(server, { email: 'neo@example.test', schoolId: school.id, studentId: mpho });
      await addGuardian(server, { email: 'whole@example.test', schoolId: school.id });
      await addGuardian(server, { email: 'unconfirmed@example.test', schoolId: school.id, studentId: kagiso, confirmed: false });
      await addUnsubscribed(server, 'gone@example.test');
      await publishedAt(server, classA, D0 + 9 * H);
      await publishedAt(server, classB, D0 + DAY + 8 * H + 10 * 60_000);
    });

    it('"photos are online" reaches followers and the class list once, with the unsubscribe headers and link', async () => {
      const before = mail.messages.length;
      expect(await server.runtime.services.season.sendDue(D0 + 9 * H + 5 * 60_000)).toBe(3);
      expect(await server.runtime.services.season.sendDue(D0 + 9 * H + 6 * 60_000)).toBe(0);
      const got = await mail.waitForMessages(3, { after: before, match: (m) => m.subject === SEASON_MSG.photosOnlineSubject(school.name) });
      expect(got.map((m) => m.to[0]).sort()).toEqual(['neo@example.test', 'roster-neo@example.test', 'whole@example.test']);
      for (const message of got) {
        // The header may be folded onto a second line.
        const token = Buffer.from(message.to[0]!).toString('base64url');
        expect(message.raw).toMatch(new RegExp(`^List-Unsubscribe:\\s+<http://[^>]+/api/guardians/unsubscribe\\?token=${token}\\.[^>]+>`, 'm'));
        expect(message.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
        expect(message.text).toContain(`/school/${school.slug}`);
        expect(message.text).toMatch(/\/unsubscribe\?token=/);
      }
      expect(got.find((m) => m.to[0] === 'neo@example.test')!.text).toContain("Neo Kgosi's photos");
      expect(got.find((m) => m.to[0] === 'neo@example.test')!.text).toContain('The photos of Class 1A at');
      await mail.noMoreThan(0, { after: before, match: (m) => m.to.includes('unconfirmed@example.test') || m.to.includes('gone@example.test'), within: 500 });
    });

    it('sends at most one message per address per Botswana day: a second one waits for the next day', async () => {
      // Day 2, 08:30: Class 2B went online at 08:10 and the 7-day reminder fell due at 08:00.
      const now = D0 + DAY + 8 * H + 30 * 60_000;
      expect(await server.runtime.services.season.sendDue(now)).toBe(3);
      const neo = (await outboxRows(server, { recipient: 'neo@example.test', school_id: school.id })).filter((row) => row.not_before >= D0 + DAY);
      expect(neo.map((row) => row.kind).sort()).toEqual(['closing_reminder', 'photos_online']);
      expect(new Set(neo.map((row) => localDayStart(row.not_before))).size).toBe(2);
      expect(Math.min(...neo.map((row) => row.not_before))).toBe(now);
      expect(Math.max(...neo.map((row) => row.not_before))).toBe(D0 + 2 * DAY + 8 * H);
      // The reminder goes to subscribers only: the class list's address never gets one.
      const reminders = await outboxRows(server, { kind: 'closing_reminder', school_id: school.id });
      expect(reminders.map((row) => row.recipient).sort()).toEqual(['neo@example.test', 'whole@example.test']);
      expect(reminders[0]!.dedupe_key).toBe(`closing_reminder:${school.id}:${localDate(D0 + 8 * DAY)}:7:${reminders[0]!.recipient}`);
      await mail.waitForMessages(2, { match: (m) => m.subject === SEASON_MSG.closingSubject(school.name, 7) });
    });

    it('previews what was sent and what no longer can be', async () => {
      await mail.waitForMessages(6, { match: (m) => m.to.some((to) => ['neo@example.test', 'whole@example.test', 'roster-neo@example.test'].includes(to)) });
      const res = await staff.get(`/api/schools/${school.id}/messages/preview`);
      expect(res.status).toBe(200);
      const preview = res.body as MessagesPreview;
      expect(preview.timezone).toBe('Africa/Gaborone');
      expect(preview.closingDate).toBe(localDate(D0 + 8 * DAY));
      const online = preview.messages.find((m) => m.kind === 'photos_online' && m.albumId === classA)!;
      expect(online.status).toBe('sent');
      expect(online.recipients.find((r) => r.email === 'roster-neo@example.test')).toEqual({ email: 'roster-neo@example.test', source: 'roster', studentName: 'Neo Kgosi' });
      expect(online.skipped).toEqual(
        expect.arrayContaining([
          { email: 'unconfirmed@example.test', reason: SEASON_MSG.skippedNotConfirmed },
          { email: 'gone@example.test', reason: SEASON_MSG.skippedUnsubscribed },
        ]),
      );
      const reminders = preview.messages.filter((m) => m.kind === 'closing_reminder');
      expect(reminders.map((m) => m.status)).toEqual(['sent', 'unplanned', 'unplanned']);
      expect(reminders[1]!.reason).toBe(SEASON_MSG.closed);
    });

    it('sends a test of each season message to the signed-in staff member, marked and left out of the statistics', async () => {
      const me = await staffEmail(server, staff.userId);
      const res = await staff.post(`/api/schools/${school.id}/messages/test`, { kind: 'closing_reminder' });
      expect(res.status).toBe(202);
      expect(res.body.sentTo).toBe(me);
      const got = await mail.waitFor(me);
      expect(got.subject).toBe(`[Test] ${SEASON_MSG.closingSubject(school.name, 1)}`);
      expect(got.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
      expect(got.text).toContain(`/school/${school.slug}`);
      expect((await staff.post(`/api/schools/${school.id}/messages/test`, { kind: 'photos_online' })).status).toBe(202);
      const rows = await outboxRows(server, { recipient: me });
      expect(rows.map((row) => row.school_id)).toEqual([null, null]);

      // The other messages a family can receive are testable too, each with its own wording.
      for (const kind of ['guardian_confirm', 'abandoned_cart', 'unpaid_order'] as const) {
        expect((await staff.post(`/api/schools/${school.id}/messages/test`, { kind })).status).toBe(202);
      }
      const tests = await mail.waitForMessages(5, { to: me });
      const bySubject = (subject: string) => tests.find((m) => m.subject === `[Test] ${subject}`);
      const confirm = bySubject(GUARDIAN_MSG.confirmSubject('Test Studio'));
      const cart = bySubject(CART_REMINDER_MSG.cartSubject);
      const unpaid = bySubject(CART_REMINDER_MSG.unpaidSubject(SEASON_MSG.testOrderId));
      // Only the non-transactional ones carry the one-click unsubscribe.
      expect(confirm?.raw).not.toMatch(/^List-Unsubscribe-Post:/m);
      expect(cart?.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
      expect(unpaid?.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
      expect((await outboxRows(server, { recipient: me })).map((row) => row.school_id)).toEqual([null, null, null, null, null]);
      const bogus = await staff.post(`/api/schools/${school.id}/messages/test`, { kind: 'bogus' });
      expect(bogus.status).toBe(400);
      expect(bogus.body.errors.kind).toBe('Choose which message to test');
      const noDate = await createSchool(server);
      expect((await staff.post(`/api/schools/${noDate.id}/messages/test`, { kind: 'closing_reminder' })).body.errors.kind).toBe(SEASON_MSG.noClosingDateReason);
    });

    it('counts the school\'s messages and the orders their recipients placed within 7 days, each order once per kind', async () => {
      await waitUntil(async () => (await outboxRows(server, { school_id: school.id, status: 'sent' })).length === 6);
      const soon = Date.now() + 60_000;
      await orderBy(server, school.id, 'neo@example.test', soon, 3000, true);
      await orderBy(server, school.id, 'whole@example.test', soon, 1200, false);
      await orderBy(server, school.id, 'neo@example.test', Date.now() + 8 * DAY, 5000, true);
      await orderBy(server, school.id, 'stranger@example.test', soon, 7000, true);
      const res = await staff.get(`/api/schools/${school.id}/messages/stats`);
      expect(res.status).toBe(200);
      const stats = res.body as MessageStats;
      expect(stats).toMatchObject({ scheduled: 0, sent: 6, failed: 0, ordersWithin7Days: 2, revenueWithin7Days: 3000 });
      expect(stats.byKind.find((k) => k.kind === 'photos_online')).toEqual({ kind: 'photos_online', label: 'Photos are online', scheduled: 0, sent: 4, failed: 0, orders: 2, revenue: 3000 });
      expect(stats.byKind.find((k) => k.kind === 'closing_reminder')).toMatchObject({ sent: 2, orders: 2, revenue: 3000 });
    });
  });

  describe('once the family pays', () => {
    it('withdraws the queued messages to the paying address at once, and plans no more reminders for that child', async () => {
      const shop = await createShop(server);
      /** 10:00 in Botswana, two days from now: the job's messages wait in the queue. */
      const future = localDayStart(Date.now()) + 2 * DAY + 10 * H;
      await updateSchool(server, shop.schoolId, { closingDate: localDate(future + 3 * DAY) });
      const child = await addStudent(server, shop.openAlbumId, 'Lesedi Moyo');
      const assigned = await staff.put('/api/photos/student', { photoIds: shop.photoIds, studentId: child });
      expect(assigned.status).toBe(200);
      await setStatus(server, shop.protectedAlbumId, 'draft');
      await addGuardian(server, { email: 'payer@example.test', schoolId: shop.schoolId, studentId: child });
      await addGuardian(server, { email: 'other@example.test', schoolId: shop.schoolId });

      expect(await server.runtime.services.season.sendDue(future)).toBe(4);
      const queued = await outboxRows(server, { school_id: shop.schoolId });
      expect(queued.map((row) => `${row.kind}:${row.recipient}:${row.status}`).sort()).toEqual([
        'closing_reminder:other@example.test:queued',
        'closing_reminder:payer@example.test:queued',
        'photos_online:other@example.test:queued',
        'photos_online:payer@example.test:queued',
      ]);
      expect((await staff.get(`/api/schools/${shop.schoolId}/messages/stats`)).body.scheduled).toBe(4);

      const preview = (await staff.get(`/api/schools/${shop.schoolId}/messages/preview`)).body as MessagesPreview;
      expect(preview.messages.find((m) => m.albumId === shop.protectedAlbumId)).toMatchObject({ status: 'unplanned', reason: SEASON_MSG.notPublished, sendAt: null });
      const three = preview.messages.find((m) => m.kind === 'closing_reminder' && m.status === 'planned' && m.recipients.length === 2);
      expect(three?.recipients.find((r) => r.email === 'payer@example.test')).toEqual({ email: 'payer@example.test', source: 'subscribed', studentName: 'Lesedi Moyo' });

      const parent = await parentFor(server, shop);
      const placed = await parent.post('/api/orders', orderBody(shop, standardLines(shop), { customerEmail: 'payer@example.test' }));
      expect(placed.status).toBe(201);
      await payThroughSandbox(server, placed.body.order.id);
      expect((await new Client(server.url).get(`/api/orders/${placed.body.order.id}`)).body.paymentStatus).toBe('completed');

      // The season's messages (the order's confirmation is the school's too, and goes out).
      const after = (await outboxRows(server, { school_id: shop.schoolId })).filter((row) => row.kind !== 'order_confirmation');
      expect(after.filter((row) => row.recipient === 'payer@example.test').map((row) => row.status)).toEqual(['cancelled', 'cancelled']);
      expect(after.filter((row) => row.recipient === 'other@example.test').map((row) => row.status)).toEqual(['queued', 'queued']);

      // The next reminders leave the child's family out: already paid.
      const later = (await staff.get(`/api/schools/${shop.schoolId}/messages/preview`)).body as MessagesPreview;
      const next = later.messages.filter((m) => m.kind === 'closing_reminder' && m.status === 'planned');
      expect(next.length).toBeGreaterThan(0);
      for (const m of next) {
        expect(m.recipients.map((r) => r.email)).not.toContain('payer@example.test');
        expect(m.skipped).toContainEqual({ email: 'payer@example.test', reason: SEASON_MSG.skippedPaid });
      }
      expect(await server.runtime.services.season.sendDue(future + DAY)).toBe(0);
    });
  });
});
