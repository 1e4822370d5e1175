import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { startMailCatcher, type MailCatcher } from '../../test/mail-catcher';
import { startSmsc, type TestSmsc } from '../../test/smsc';
import { addPhoto, createAlbum, createSchool } from '../../test/fixtures';
import { createShop, orderBody, parentFor, payThroughSandbox, standardLines, type Shop } from '../../test/shop';
import { SEASON_MSG } from '../../contract/messages';
import type { MessagesPreview } from '../../contract/outreach';
import { GUARDIAN_PHONE_MSG } from '../../contract/guardian-phone';
import { smsSegments } from '../../contract/sms-text';
import { localDate, localDayStart } from '../outreach/send-window';
import { reminderDueAt } from '../season/planner';
import { addStudent, outboxRows, publishedAt } from '../season/season.test-helpers';
import { addPhoneGuardian, followShortLink, linksOf } from './season-sms.test-helpers';

const H = 3600_000;
const DAY = 24 * H;
const MIN = 60_000;
const WINDOW = { from: '08:00', until: '19:00' };

/**
 * The season by SMS (docs/sms.md, "The season by SMS", "Opting out"): the season timeline and the
 * cart and order reminders reach confirmed phones through a real SMPP server, with short links.
 */
describeApi('the season by SMS', () => {
  let server: TestServer;
  let mail: MailCatcher;
  let smsc: TestSmsc;
  let phones = 0;
  /** A new Botswana mobile number per call. */
  const phone = () => `+2677${String(10_000_000 + ++phones).slice(1)}`;
  const smsTo = (to: string) => smsc.messages.filter((m) => m.to === to);
  const smsRows = async (where: Record<string, unknown>) => (await server.runtime.knex('outbox_messages').where({ channel: 'sms', ...where }).orderBy('id')) as Record<string, unknown>[];

  beforeAll(async () => {
    smsc = await startSmsc();
    mail = await startMailCatcher();
    server = await startTestServer({ SMTP_URL: mail.url }, { smsUrl: smsc.url });
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
    await smsc?.stop();
  });

  describe('the season timeline', () => {
    /** Midnight in Botswana, 10 days ago: planned times lie in the past, so the sender delivers at once. */
    const D0 = localDayStart(Date.now()) - 10 * DAY;
    let school: { id: number; name: string; slug: string };
    let classA: number;
    let thabo: number;
    const confirmed = phone();
    const unconfirmed = phone();
    const unsubscribed = phone();
    const both = phone();

    beforeAll(async () => {
      school = await createSchool(server, { name: 'Kgale Hill Primary', closingDate: localDate(D0 + 30 * DAY) });
      classA = await createAlbum(server, school.id, { name: 'Class 1A' });
      await addPhoto(server, classA, 'IMG_0001.JPG');
      thabo = await addStudent(server, classA, 'Ṱhabo Moyo', 'roster-thabo@example.test');
      const neo = await addStudent(server, classA, 'Neo Kgosi');
      await addPhoneGuardian(server, { phone: confirmed, follows: [{ schoolId: school.id, studentId: thabo }] });
      await addPhoneGuardian(server, { phone: unconfirmed, phoneConfirmed: false, follows: [{ schoolId: school.id, studentId: thabo }] });
      await addPhoneGuardian(server, { phone: unsubscribed, unsubscribed: true, follows: [{ schoolId: school.id, studentId: thabo }] });
      await addPhoneGuardian(server, { phone: both, email: 'both@example.test', follows: [{ schoolId: school.id, studentId: neo }] });
      await publishedAt(server, classA, D0 + 9 * H);
    });

    it('sends "photos are online" once to each confirmed phone, in one GSM-7 segment, with a working short link and opt-out link', async () => {
      const season = server.runtime.services.season;
      const at = D0 + 9 * H + 5 * MIN;
      // Two e-mails (the class list's address; the guardian with both, planned for the next day) and two SMS.
      expect(await season.sendDue(at)).toBe(4);
      expect(await season.sendDue(at + MIN)).toBe(0);
      const rows = await smsRows({ school_id: school.id, kind: 'photos_online' });
      expect(rows.map((row) => row.recipient).sort()).toEqual([confirmed, both].sort());
      expect(rows.find((row) => row.recipient === confirmed)?.dedupe_key).toBe(`sms:photos_online:album:${classA}:${confirmed}`);

      await server.runtime.services.outbox.deliverDue();
      const [sms] = await smsc.waitFor(2).then(() => smsTo(confirmed));
      if (!sms) throw new Error('no SMS');
      expect(sms.dataCoding).toBe(0);
      expect(sms.text).toMatch(/^Photos of Thabo Moyo \(Kgale Hill Primary\) are online: /);
      expect(sms.text).toContain(`Order by`);
      expect(smsSegments(sms.text)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
      const [link, stop] = linksOf(sms.text);
      expect(sms.text.endsWith(`Stop SMS: ${stop}`)).toBe(true);
      // Short: the token after the address is at most 40 characters.
      for (const url of [link!, stop!]) expect(url.slice(server.url.length).length).toBeLessThanOrEqual(40);
      expect(await followShortLink(server, link!)).toEqual({ status: 302, location: `${server.url}/school/${school.slug}` });
      expect((await followShortLink(server, stop!)).location).toMatch(new RegExp(`^${server.url}/stop-sms\\?token=`));

      // Not to the phone that never entered its code, nor the one that unsubscribed; and only once.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smsTo(unconfirmed)).toHaveLength(0);
      expect(smsTo(unsubscribed)).toHaveLength(0);
      expect(smsTo(confirmed)).toHaveLength(1);
    });

    it('sends a guardian with an address and a phone one message a day: the SMS first, the e-mail on a later day', async () => {
      const rows = await outboxRows(server, { school_id: school.id, kind: 'photos_online' });
      const guardianRows = rows.filter((row) => row.recipient === both || row.recipient === 'both@example.test');
      expect(guardianRows).toHaveLength(2);
      const sms = guardianRows.find((row) => row.recipient === both)!;
      const email = guardianRows.find((row) => row.recipient === 'both@example.test')!;
      expect(sms.not_before).toBe(D0 + 9 * H + 5 * MIN);
      expect(localDayStart(email.not_before)).toBeGreaterThan(localDayStart(sms.not_before));
      // The class list's address is e-mail only.
      expect((await smsRows({ school_id: school.id })).some((row) => String(row.recipient).includes('@'))).toBe(false);
    });

    it('previews each message\'s SMS next to its e-mail: text, segments, phones and the estimated cost', async () => {
      const staff = await staffClient(server, 'photographer');
      const res = await staff.get(`/api/schools/${school.id}/messages/preview`);
      expect(res.status).toBe(200);
      const preview = res.body as MessagesPreview;
      expect(preview.smsCostThebe).toBe(25);
      const online = preview.messages.find((m) => m.kind === 'photos_online' && m.albumId === classA)!;
      expect(online.sms.recipients.map((r) => r.phone).sort()).toEqual([confirmed, both].sort());
      expect(online.sms.recipients.find((r) => r.phone === confirmed)?.studentName).toBe('Ṱhabo Moyo');
      expect(online.sms.skipped).toEqual(
        expect.arrayContaining([
          { phone: unconfirmed, reason: SEASON_MSG.skippedNotConfirmed },
          { phone: unsubscribed, reason: SEASON_MSG.skippedUnsubscribed },
        ]),
      );
      expect(online.sms).toMatchObject({ encoding: 'GSM-7', segments: 1, costThebe: 2 * 25 });
      expect(online.sms.text).toMatch(/^Photos of Thabo Moyo \(Kgale Hill Primary\) are online: http:\/\/127\.0\.0\.1:\d+\/s\/[A-Za-z0-9_-]{12} /);
      expect(online.sms.units).toBe(smsSegments(online.sms.text).units);
      // The reminders have their SMS too, planned for the same phones.
      const reminder = preview.messages.find((m) => m.kind === 'closing_reminder' && m.status === 'planned')!;
      expect(reminder.sms.recipients.map((r) => r.phone).sort()).toEqual([confirmed, both].sort());
      expect(reminder.sms.text).toContain('ordering closes');
    });

    it('keeps to the school\'s sending window: a class online at night texts the next morning', async () => {
      const night = await createSchool(server, { closingDate: localDate(D0 + 30 * DAY) });
      const klass = await createAlbum(server, night.id, { name: 'Class 3C' });
      await addPhoto(server, klass, 'IMG_0003.JPG');
      const kid = await addStudent(server, klass, 'Lesedi Dube');
      const to = phone();
      await addPhoneGuardian(server, { phone: to, follows: [{ schoolId: night.id, studentId: kid }] });
      await publishedAt(server, klass, D0 + 2 * DAY + 21 * H);
      expect(await server.runtime.services.season.sendDue(D0 + 2 * DAY + 21 * H + 5 * MIN)).toBe(1);
      const [row] = await smsRows({ recipient: to });
      expect(Number(row?.not_before)).toBe(D0 + 3 * DAY + 8 * H);
    });
  });

  describe('none after the family paid', () => {
    let shop: Shop;
    let parent: Client;
    const to = phone();
    const email = 'paying@example.test';

    beforeAll(async () => {
      shop = await createShop(server);
      parent = await parentFor(server, shop);
      await publishedAt(server, shop.openAlbumId, Date.now() - DAY);
      await addPhoneGuardian(server, { phone: to, email, follows: [{ schoolId: shop.schoolId }] });
    });

    it('withdraws a queued reminder SMS when the family pays, and plans none after', async () => {
      const closing = (await server.runtime.knex('schools').where({ id: shop.schoolId }).first('closing_date')).closing_date as string;
      const season = server.runtime.services.season;
      // The 7-day reminder, written when it falls due (in the future: it waits in the outbox).
      const due7 = reminderDueAt(closing, 7, WINDOW);
      await season.sendDue(due7 + MIN);
      const [queued] = await smsRows({ recipient: to, kind: 'closing_reminder' });
      expect(queued?.status).toBe('queued');
      expect(queued?.dedupe_key).toBe(`sms:closing_reminder:${shop.schoolId}:${closing}:7:${to}`);

      const order = await parent.post('/api/orders', orderBody(shop, standardLines(shop), { customerEmail: email }));
      expect(order.status).toBe(201);
      await payThroughSandbox(server, order.body.order?.id ?? order.body.id);
      expect((await smsRows({ recipient: to, kind: 'closing_reminder' }))[0]?.status).toBe('cancelled');

      // The 3-day reminder leaves the family out on both channels.
      await season.sendDue(reminderDueAt(closing, 3, WINDOW) + MIN);
      expect(await smsRows({ recipient: to, kind: 'closing_reminder', status: 'queued' })).toHaveLength(0);
      const preview = (await (await staffClient(server)).get(`/api/schools/${shop.schoolId}/messages/preview`)).body as MessagesPreview;
      const three = preview.messages.find((m) => m.kind === 'closing_reminder' && m.sms.skipped.some((s) => s.phone === to));
      expect(three?.sms.skipped.find((s) => s.phone === to)?.reason).toBe(SEASON_MSG.skippedPaid);
    });
  });

  describe('carts and unpaid orders', () => {
    let shop: Shop;
    let parent: Client;
    beforeAll(async () => {
      shop = await createShop(server);
      parent = await parentFor(server, shop);
    });

    it('texts an abandoned cart once, whose link brings the cart back on a fresh device', async () => {
      const to = phone();
      const guardianId = await addPhoneGuardian(server, { phone: to, follows: [{ schoolId: shop.schoolId }] });
      const now = Date.now();
      const items = [{ photoId: shop.photoIds[0], productType: shop.print.id, quantity: 2 }];
      await server.runtime.knex('guardian_carts').insert({ guardian_id: guardianId, school_id: shop.schoolId, items: JSON.stringify(items), updated_at: now - 25 * H });
      const reminders = server.runtime.services.reminders;
      expect((await reminders.sendDue(now)).sms).toBe(1);
      expect((await reminders.sendDue(now)).sms).toBe(0);
      const [row] = await smsRows({ recipient: to });
      expect(row?.kind).toBe('abandoned_cart');
      expect(row?.dedupe_key).toBe(`sms:abandoned_cart:${guardianId}:${now - 25 * H}`);

      await server.runtime.knex('outbox_messages').where({ id: row?.id }).update({ not_before: Date.now() - 1 });
      await server.runtime.services.outbox.deliverDue();
      await expect.poll(() => smsTo(to).length).toBe(1);
      const sms = smsTo(to)[0]!;
      expect(sms.text).toMatch(new RegExp(`^Your photos from ${shop.schoolName} are still in your cart: `));
      expect(smsSegments(sms.text).segments).toBe(1);
      const [link] = linksOf(sms.text);
      const target = await followShortLink(server, link!);
      expect(target.status).toBe(302);
      const restorePath = target.location!.slice(server.url.length);
      expect(restorePath).toMatch(/^\/cart\/restore\?token=/);
      const token = new URLSearchParams(restorePath.split('?')[1]).get('token');
      const restored = await new Client(server.url).post('/api/guardians/cart/restore', { token });
      expect(restored.status).toBe(200);
      expect(restored.body.items).toEqual([expect.objectContaining({ photoId: shop.photoIds[0], quantity: 2 })]);
    });

    it('texts an unpaid order once with a link to its page, and withdraws a queued one once it is paid', async () => {
      const to = phone();
      const email = 'unpaid-sms@example.test';
      await addPhoneGuardian(server, { phone: to, email, follows: [{ schoolId: shop.schoolId }] });
      const placed = await parent.post('/api/orders', orderBody(shop, standardLines(shop), { customerEmail: email }));
      const orderId = placed.body.order?.id ?? placed.body.id;
      await server.runtime.knex('orders').where({ id: orderId }).update({ created_at: Date.now() - 25 * H });
      const reminders = server.runtime.services.reminders;
      expect((await reminders.sendDue(Date.now())).sms).toBe(1);
      expect((await reminders.sendDue(Date.now())).sms).toBe(0);
      const rows = await smsRows({ order_id: orderId });
      expect(rows.map((row) => [row.recipient, row.kind, row.dedupe_key])).toEqual([[to, 'unpaid_order', `sms:unpaid_order:${orderId}`]]);
      await server.runtime.knex('outbox_messages').where({ id: rows[0]?.id }).update({ not_before: Date.now() - 1 });
      await server.runtime.services.outbox.deliverDue();
      await expect.poll(() => smsTo(to).length).toBe(1);
      const sms = smsTo(to)[0]!;
      expect(sms.text).toMatch(new RegExp(`^Order ${orderId} \\(${shop.schoolName}, P77\\.50\\) is unpaid\\. Pay: `));
      expect(await followShortLink(server, linksOf(sms.text)[0]!)).toEqual({ status: 302, location: `${server.url}/order-confirmation/${orderId}` });

      // Another order, its reminder written two days ahead (it waits); the family pays: it is withdrawn.
      const later = await parent.post('/api/orders', orderBody(shop, standardLines(shop), { customerEmail: email }));
      const laterId = later.body.order?.id ?? later.body.id;
      expect((await reminders.sendDue(Date.now() + 2 * DAY)).sms).toBe(1);
      expect((await smsRows({ order_id: laterId }))[0]?.status).toBe('queued');
      await payThroughSandbox(server, laterId);
      expect((await smsRows({ order_id: laterId }))[0]?.status).toBe('cancelled');
    });
  });

  describe('opting out', () => {
    it('the SMS\'s opt-out page changes nothing when opened; its POST unsubscribes the phone and withdraws its queued SMS', async () => {
      const school = await createSchool(server, { closingDate: localDate(Date.now() + 20 * DAY) });
      const klass = await createAlbum(server, school.id, { name: 'Class 5E' });
      await addPhoto(server, klass, 'IMG_0005.JPG');
      const kid = await addStudent(server, klass, 'Kabo Sello');
      const to = phone();
      const guardianId = await addPhoneGuardian(server, { phone: to, email: 'stop@example.test', follows: [{ schoolId: school.id, studentId: kid }] });
      // Online tonight: the SMS waits for tomorrow's window.
      const tonight = localDayStart(Date.now()) + 22 * H;
      await publishedAt(server, klass, tonight);
      await server.runtime.services.season.sendDue(tonight + MIN);
      const [queued] = await smsRows({ recipient: to });
      expect(await outboxRows(server, { recipient: 'stop@example.test', status: 'queued' })).toHaveLength(1);
      expect(queued?.status).toBe('queued');

      const [, stop] = linksOf(String(queued?.text));
      const page = await followShortLink(server, stop!);
      const token = new URL(page.location!).searchParams.get('token')!;
      const anyone = new Client(server.url);
      const info = await anyone.get(`/api/guardians/unsubscribe?token=${encodeURIComponent(token)}`);
      expect(info.status).toBe(200);
      expect(info.body).toEqual({ phone: to, unsubscribed: false, message: GUARDIAN_PHONE_MSG.unsubscribePrompt });
      // Opening changed nothing.
      expect((await server.runtime.knex('guardians').where({ id: guardianId }).first('unsubscribed_at')).unsubscribed_at).toBeNull();
      expect((await smsRows({ recipient: to }))[0]?.status).toBe('queued');

      const done = await anyone.post(`/api/guardians/unsubscribe?token=${encodeURIComponent(token)}`, {});
      expect(done.status).toBe(200);
      expect(done.body).toEqual({ phone: to, unsubscribed: true, message: GUARDIAN_PHONE_MSG.unsubscribed });
      expect((await smsRows({ recipient: to }))[0]?.status).toBe('cancelled');
      // The guardian's e-mail waiting for a later day goes too: they asked to hear no more.
      expect((await outboxRows(server, { recipient: 'stop@example.test', status: 'queued' }))).toHaveLength(0);
      expect((await anyone.get(`/api/guardians/unsubscribe?token=${encodeURIComponent(token)}`)).body.unsubscribed).toBe(true);

      // No SMS is written to it afterwards.
      const second = await createAlbum(server, school.id, { name: 'Class 6F' });
      await addPhoto(server, second, 'IMG_0006.JPG');
      const other = await addStudent(server, second, 'Other Child');
      await server.runtime.knex('guardian_follows').insert({ guardian_id: guardianId, school_id: school.id, student_id: other, created_at: Date.now(), confirmed_at: Date.now() });
      await publishedAt(server, second, tonight);
      await server.runtime.services.season.sendDue(tonight + 2 * MIN);
      expect(await smsRows({ recipient: to, status: 'queued' })).toHaveLength(0);

      const forged = await anyone.post(`/api/guardians/unsubscribe?token=${encodeURIComponent(token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))}`, {});
      expect(forged.status).toBe(400);
    });
  });
});
