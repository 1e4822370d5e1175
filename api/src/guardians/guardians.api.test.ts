import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT, GUARDIAN_MSG, MSG, OUTREACH_MSG } from '../../contract/messages';
import { GUARDIAN_CONFIRM_TTL_MS } from '../../contract/outreach';
import type { Student } from '../../contract/students';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { createAlbum, createSchool, customerClient } from '../../test/fixtures';
import { startMailCatcher, type MailCatcher } from '../../test/mail-catcher';
import { unsubscribeHeaders, unsubscribePageUrl, unsubscribeToken } from '../outreach/unsubscribe';
import { GUARDIAN_COOKIE } from '../outreach/guardian-cookie';
import { familyWith } from '../students/students.test-helpers';
import { parseEml } from '../mail/eml.test-helpers';

/** Guardians over HTTP (docs/outreach.md): consent, double opt-in, one-click unsubscribe, erasure. */
describeApi('guardians', () => {
  let server: TestServer;
  let mail: MailCatcher;
  let staff: Client;
  let school: { id: number; name: string; slug: string };
  let albumId: number;
  let children: Student[];
  const password = 'school-pass';
  let counter = 0;
  const address = (name: string) => `${name}-${++counter}@family.example`;
  const db = () => server.runtime.knex;

  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startTestServer({ SMTP_URL: mail.url });
    staff = await staffClient(server, 'admin');
    school = await createSchool(server, { name: 'Maru-a-Pula Primary', password });
    albumId = await createAlbum(server, school.id, { name: 'Class 3C' });
    const res = await staff.post(`/api/albums/${albumId}/students`, {
      students: [{ name: 'Kabo Ramotswe' }, { name: 'Neo Molefe' }, { name: 'Lesedi Dube', guardianEmail: 'lesedi.mum@family.example' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    children = res.body.students as Student[];
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  /** A browser that typed the school password. */
  async function schoolBrowser(): Promise<Client> {
    const browser = new Client(server.url);
    const res = await browser.post(`/api/schools/${school.slug}/verify`, { password });
    expect(res.status).toBe(200);
    return browser;
  }

  const confirmLinkIn = (text: string): string => {
    const match = /https?:\/\/\S+\/api\/guardians\/confirm\?token=[A-Za-z0-9_%-]+/.exec(text);
    if (!match) throw new Error(`no confirm link in:\n${text}`);
    return match[0];
  };
  const path = (url: string) => url.slice(server.url.length);

  /** Subscribes from the browser and returns the confirmation link that arrives. */
  async function subscribe(browser: Client, email: string, marketing?: boolean): Promise<string> {
    const before = mail.messages.length;
    const res = await browser.post('/api/guardians/subscribe', { email, consent: true, ...(marketing === undefined ? {} : { marketing }) });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toEqual({ message: GUARDIAN_MSG.subscribeAccepted, consentVersion: CONSENT.version });
    return confirmLinkIn((await mail.waitFor(email, before)).text);
  }

  const guardianRow = (email: string) => db()('guardians').where({ email }).first();
  const followsOf = async (guardianId: number) =>
    (await db()('guardian_follows').where({ guardian_id: guardianId }).orderBy('id').select('school_id', 'student_id', 'confirmed_at')).map((row) => ({
      schoolId: Number(row.school_id),
      studentId: row.student_id === null ? null : Number(row.student_id),
      confirmed: row.confirmed_at !== null,
    }));

  describe('subscribing', () => {
    it('is refused with 403 when the browser has unlocked nothing, and sends nothing', async () => {
      const before = mail.messages.length;
      const res = await new Client(server.url).post('/api/guardians/subscribe', { email: address('nobody'), consent: true });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'NOTHING_UNLOCKED', message: GUARDIAN_MSG.nothingUnlocked });
      await mail.noMoreThan(0, { after: before, within: 300 });
    });

    it('answers 400 naming the field for a missing consent, a bad address or a marketing that is not true or false', async () => {
      const browser = await schoolBrowser();
      const noConsent = await browser.post('/api/guardians/subscribe', { email: address('a') });
      expect(noConsent.status).toBe(400);
      expect(noConsent.body.errors.consent).toBe(OUTREACH_MSG.consentRequired);
      const falseConsent = await browser.post('/api/guardians/subscribe', { email: address('a'), consent: false });
      expect(falseConsent.status).toBe(400);
      const badEmail = await browser.post('/api/guardians/subscribe', { email: 'not-an-address', consent: true });
      expect(badEmail.status).toBe(400);
      expect(badEmail.body.errors.email).toBe(MSG.validEmail);
      const badMarketing = await browser.post('/api/guardians/subscribe', { email: address('a'), consent: true, marketing: 'yes' });
      expect(badMarketing.status).toBe(400);
      expect(badMarketing.body.errors.marketing).toBe(OUTREACH_MSG.marketingBoolean);
    });

    it('refuses a post from another site (403 CROSS_SITE)', async () => {
      const browser = await schoolBrowser();
      const res = await browser.post('/api/guardians/subscribe', { email: address('x'), consent: true }, { Origin: 'https://evil.example' });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('CROSS_SITE');
    });

    it('double opt-in: stores the consent version and time and the marketing choice, sends only the confirmation until confirmed, and sets the guardian cookie', async () => {
      const browser = await schoolBrowser();
      const email = address('mma.kabo');
      const before = mail.messages.length;
      const started = Date.now();
      const res = await browser.post('/api/guardians/subscribe', { email: email.toUpperCase(), consent: true, marketing: true });
      expect(res.status).toBe(202);
      expect(res.headers.getSetCookie().some((cookie) => cookie.startsWith(`${GUARDIAN_COOKIE}=`) && /httponly/i.test(cookie))).toBe(true);
      const message = await mail.waitFor(email, before);
      expect(message.subject).toBe(GUARDIAN_MSG.confirmSubject('Test Studio'));
      expect(message.text).toContain(school.name);
      expect(message.raw).not.toMatch(/^List-Unsubscribe:/m);
      const link = confirmLinkIn(message.text);

      const row = await guardianRow(email);
      expect(row.consent_version).toBe(CONSENT.version);
      expect(Number(row.consent_at)).toBeGreaterThanOrEqual(started);
      expect(Number(row.consent_at)).toBeLessThanOrEqual(Date.now());
      expect(Number(row.marketing)).toBe(1);
      expect(Number(row.marketing_at)).toBeGreaterThanOrEqual(started);
      expect(row.confirmed_at).toBeNull();
      expect(await followsOf(row.id)).toEqual([{ schoolId: school.id, studentId: null, confirmed: false }]);
      expect((await browser.get('/api/guardians/me')).body).toEqual({ subscribed: true, confirmed: false, email: `m…@family.example`, unsubscribed: false });
      // Only the confirmation has gone out to the address.
      await mail.noMoreThan(1, { to: email, within: 500 });

      const confirmed = await new Client(server.url).get(path(link));
      expect(confirmed.status).toBe(200);
      expect(confirmed.body).toEqual({ confirmed: true, email, message: GUARDIAN_MSG.confirmed });
      expect(confirmed.headers.getSetCookie().some((cookie) => cookie.startsWith(`${GUARDIAN_COOKIE}=`))).toBe(true);
      const after = await guardianRow(email);
      expect(after.confirmed_at).not.toBeNull();
      expect(Number(after.marketing)).toBe(1);
      expect(await followsOf(row.id)).toEqual([{ schoolId: school.id, studentId: null, confirmed: true }]);
      expect((await browser.get('/api/guardians/me')).body).toMatchObject({ subscribed: true, confirmed: true });

      // A second click says confirmed again; a browser is sent on to the PWA's page.
      expect((await new Client(server.url).get(path(link))).body).toEqual({ confirmed: true, email, message: GUARDIAN_MSG.confirmed });
      const page = await new Client(server.url).get(path(link), { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
      expect(page.status).toBe(303);
      expect(page.headers.get('location')).toBe('/subscribed?status=confirmed');
    });

    it('stores the marketing opt-in separately: without it, only the consent', async () => {
      const email = address('no-offers');
      await subscribe(await schoolBrowser(), email);
      const row = await guardianRow(email);
      expect(row.consent_version).toBe(CONSENT.version);
      expect(Number(row.marketing)).toBe(0);
      expect(row.marketing_at).toBeNull();
    });

    it('follows exactly what the grant proves: a child unlocked by code, a school by password', async () => {
      const [kabo, neo] = children as [Student, Student];
      const codeOnly = await familyWith(server, kabo.code);
      const first = address('code');
      const mailText = await (async () => {
        const before = mail.messages.length;
        await subscribe(codeOnly, first);
        return (await mail.waitFor(first, before)).text;
      })();
      // The address is not proven yet: the e-mail names the school, never the child.
      expect(mailText).not.toContain('Kabo');
      expect(mailText).toContain('your child');
      expect(await followsOf((await guardianRow(first)).id)).toEqual([{ schoolId: school.id, studentId: kabo.id, confirmed: false }]);

      const both = await familyWith(server, neo.code);
      expect((await both.post(`/api/schools/${school.slug}/verify`, { password })).status).toBe(200);
      const second = address('both');
      await subscribe(both, second);
      const follows = await followsOf((await guardianRow(second)).id);
      expect(follows).toHaveLength(2);
      expect(follows).toEqual(
        expect.arrayContaining([
          { schoolId: school.id, studentId: null, confirmed: false },
          { schoolId: school.id, studentId: neo.id, confirmed: false },
        ]),
      );
    });

    it('a follow added later from another browser stays pending (and changes no opt-in) until the address confirms again', async () => {
      const email = address('confirmed-once');
      const link = await subscribe(await schoolBrowser(), email, false);
      expect((await new Client(server.url).get(path(link))).status).toBe(200);
      const id = (await guardianRow(email)).id;

      const stranger = await familyWith(server, (children[0] as Student).code);
      const second = await subscribe(stranger, email, true);
      const row = await guardianRow(email);
      expect(row.confirmed_at).not.toBeNull();
      expect(Number(row.marketing)).toBe(0);
      expect(await followsOf(id)).toEqual([
        { schoolId: school.id, studentId: null, confirmed: true },
        { schoolId: school.id, studentId: (children[0] as Student).id, confirmed: false },
      ]);
      // That browser learns nothing about the address having been confirmed before.
      expect((await stranger.get('/api/guardians/me')).body).toMatchObject({ subscribed: true, confirmed: false });

      // The first link, clicked again, confirms nothing new.
      await new Client(server.url).get(path(link));
      expect((await followsOf(id))[1]?.confirmed).toBe(false);
      expect((await new Client(server.url).get(path(second))).status).toBe(200);
      expect((await followsOf(id)).every((follow) => follow.confirmed)).toBe(true);
      expect(Number((await guardianRow(email)).marketing)).toBe(1);
    });

    it('rate-limits like password resets: the sixth request for one address from one client is 429 with Retry-After', async () => {
      const browser = await schoolBrowser();
      const email = address('flood');
      for (let i = 0; i < 5; i++) expect((await browser.post('/api/guardians/subscribe', { email, consent: true })).status).toBe(202);
      const res = await browser.post('/api/guardians/subscribe', { email, consent: true });
      expect(res.status).toBe(429);
      expect(res.body.message).toBe(MSG.tooManyAttempts);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      await mail.waitForMessages(5, { to: email });
      await mail.noMoreThan(5, { to: email, within: 500 });
    });
  });

  describe('confirming', () => {
    it('answers 400 for a missing, unknown or expired token, and sends a browser to /subscribed?status=invalid', async () => {
      const anon = new Client(server.url);
      const missing = await anon.get('/api/guardians/confirm');
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ code: 'TOKEN_REQUIRED', message: GUARDIAN_MSG.tokenRequired });
      const unknown = await anon.get('/api/guardians/confirm?token=nope');
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ code: 'CONFIRM_LINK_INVALID', message: GUARDIAN_MSG.confirmLinkInvalid });

      const email = address('late');
      const link = await subscribe(await schoolBrowser(), email);
      const guardianId = (await guardianRow(email)).id;
      // Seven days and a moment later.
      await db()('guardian_confirmations').where({ guardian_id: guardianId }).update({ expires_at: Date.now() - 1 });
      const expired = await anon.get(path(link));
      expect(expired.status).toBe(400);
      expect(expired.body.code).toBe('CONFIRM_LINK_INVALID');
      const page = await anon.get(path(link), { Accept: 'text/html' });
      expect(page.status).toBe(303);
      expect(page.headers.get('location')).toBe('/subscribed?status=invalid');
      expect((await guardianRow(email)).confirmed_at).toBeNull();
      // The service decides by the clock it is given: a link is good until its end.
      await db()('guardian_confirmations').where({ guardian_id: guardianId }).update({ expires_at: Date.now() + GUARDIAN_CONFIRM_TTL_MS });
      const token = decodeURIComponent(new URL(link).searchParams.get('token') as string);
      await expect(server.runtime.services.guardians.confirm(token, Date.now() + GUARDIAN_CONFIRM_TTL_MS + 1)).rejects.toMatchObject({ status: 400 });
    });
  });

  describe('unsubscribing in one click', () => {
    it('works from the List-Unsubscribe URL of a delivered message: a form POST with no cookie and no Origin, and withdraws queued reminders', async () => {
      const email = address('one-click');
      const link = await subscribe(await schoolBrowser(), email, true);
      await new Client(server.url).get(path(link));
      const { outbox } = server.runtime.services;
      const token = unsubscribeToken(server.config.jwtSecret, email);
      const before = mail.messages.length;
      await outbox.enqueue({
        kind: 'photos_online',
        to: email,
        subject: 'Photos are online',
        text: `See them. Unsubscribe: ${unsubscribePageUrl(server.config.publicUrl, token)}`,
        html: '<p>See them.</p>',
        headers: unsubscribeHeaders(server.config.publicUrl, token),
      });
      outbox.kick();
      const delivered = await mail.waitFor(email, before);
      const header = /^<([^>]+)>$/.exec(parseEml(delivered.raw).headers['list-unsubscribe'] ?? '')?.[1];
      expect(header).toBeDefined();
      expect(delivered.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);

      // A reminder still waiting for its day, and a transactional message, to the same address.
      const later = Date.now() + 3 * 86_400_000;
      await outbox.enqueue({ kind: 'closing_reminder', to: email, subject: 'Closing soon', text: 'x', html: 'x', notBefore: later });
      await outbox.enqueue({ kind: 'payment_expired', to: email, subject: 'Payment expired', text: 'x', html: 'x', notBefore: later });

      const info = await new Client(server.url).get(path(header as string));
      expect(info.body).toEqual({ email, unsubscribed: false, message: GUARDIAN_MSG.unsubscribePrompt });
      expect((await guardianRow(email)).unsubscribed_at).toBeNull();

      const res = await fetch(header as string, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
        redirect: 'manual',
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ email, unsubscribed: true, message: GUARDIAN_MSG.unsubscribed });
      const row = await guardianRow(email);
      expect(row.unsubscribed_at).not.toBeNull();
      expect(Number(row.marketing)).toBe(0);
      const statuses = await db()('outbox_messages').where({ recipient: email }).whereIn('kind', ['closing_reminder', 'payment_expired']).select('kind', 'status');
      expect(Object.fromEntries(statuses.map((s) => [s.kind, s.status]))).toEqual({ closing_reminder: 'cancelled', payment_expired: 'queued' });
      expect((await new Client(server.url).get(path(header as string))).body.unsubscribed).toBe(true);
      await db()('outbox_messages').where({ recipient: email, kind: 'payment_expired' }).update({ status: 'cancelled' });

      // Subscribing again is allowed and needs the confirmation again.
      const again = await subscribe(await schoolBrowser(), email);
      expect((await guardianRow(email)).unsubscribed_at).not.toBeNull();
      expect((await new Client(server.url).get(path(again))).status).toBe(200);
      expect((await guardianRow(email)).unsubscribed_at).toBeNull();
    });

    it('gives a class list address with no guardian row one, marked unsubscribed', async () => {
      const email = 'lesedi.mum@family.example';
      // RFC 8058 also lets a provider post the same field as multipart/form-data.
      const form = new FormData();
      form.set('List-Unsubscribe', 'One-Click');
      const res = await new Client(server.url).post(`/api/guardians/unsubscribe?token=${encodeURIComponent(unsubscribeToken(server.config.jwtSecret, email))}`, form);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ email, unsubscribed: true, message: GUARDIAN_MSG.unsubscribed });
      const row = await guardianRow(email);
      expect(row.unsubscribed_at).not.toBeNull();
      expect(row.confirmed_at).toBeNull();
      expect(Number(row.marketing)).toBe(0);
    });

    it('answers 400 for a bad or missing token, on GET and POST', async () => {
      const anon = new Client(server.url);
      const forged = `${Buffer.from('someone@family.example').toString('base64url')}.${'A'.repeat(32)}`;
      for (const method of ['GET', 'POST']) {
        const bad = await anon.request(method, `/api/guardians/unsubscribe?token=${forged}`);
        expect(bad.status).toBe(400);
        expect(bad.body).toMatchObject({ code: 'UNSUBSCRIBE_LINK_INVALID', message: GUARDIAN_MSG.unsubscribeLinkInvalid });
        expect((await anon.request(method, '/api/guardians/unsubscribe')).status).toBe(400);
      }
      expect(await guardianRow('someone@family.example')).toBeUndefined();
    });
  });

  describe('the guardian cookie', () => {
    it('says nothing without a cookie, or with a forged one', async () => {
      const empty = { subscribed: false, confirmed: false, email: null, unsubscribed: false };
      expect((await new Client(server.url).get('/api/guardians/me')).body).toEqual(empty);
      expect((await new Client(server.url).get('/api/guardians/me', { Cookie: `${GUARDIAN_COOKIE}=1.${'x'.repeat(32)}` })).body).toEqual(empty);
    });
  });

  describe('staff', () => {
    it('list a school’s guardians with what they follow (401, 403, 404 first)', async () => {
      expect((await new Client(server.url).get(`/api/schools/${school.id}/guardians`)).status).toBe(401);
      expect((await (await customerClient(server)).get(`/api/schools/${school.id}/guardians`)).status).toBe(403);
      expect((await staff.get('/api/schools/999999/guardians')).status).toBe(404);
      const [kabo] = children as [Student];
      const email = address('listed');
      await subscribe(await familyWith(server, kabo.code), email, true);
      const photographer = await staffClient(server, 'photographer');
      const res = await photographer.get(`/api/schools/${school.id}/guardians`);
      expect(res.status).toBe(200);
      const listed = (res.body.guardians as { email: string }[]).find((g) => g.email === email);
      expect(listed).toMatchObject({
        email,
        confirmed: false,
        marketing: true,
        unsubscribed: false,
        consentVersion: CONSENT.version,
        follows: [{ studentId: kabo.id, studentName: 'Kabo Ramotswe', albumName: 'Class 3C' }],
      });
      expect(Date.parse((listed as unknown as { consentAt: string }).consentAt)).toBeGreaterThan(Date.now() - 60_000);
    });

    it('erase a guardian: the row, follows and cart go, queued messages are cancelled and past ones keep only their counts', async () => {
      const email = address('erase-me');
      const link = await subscribe(await schoolBrowser(), email);
      await new Client(server.url).get(path(link));
      const id = (await guardianRow(email)).id as number;
      const { outbox } = server.runtime.services;
      await outbox.enqueue({ kind: 'closing_reminder', to: email, subject: 'Closing soon', text: 'x', html: 'x', guardianId: id, schoolId: school.id, notBefore: Date.now() + 86_400_000 });
      await db()('guardian_carts').insert({ guardian_id: id, school_id: school.id, items: '[]', updated_at: Date.now() });
      // The confirmation went out (sent); wait until the outbox has marked it.
      await expect.poll(async () => (await db()('outbox_messages').where({ recipient: email, kind: 'guardian_confirm' }).first())?.status, { timeout: 5000 }).toBe('sent');
      const messageIds = (await db()('outbox_messages').where({ guardian_id: id }).select('id')).map((row) => row.id as number);
      expect(messageIds).toHaveLength(2);

      expect((await new Client(server.url).delete(`/api/guardians/${id}`)).status).toBe(401);
      expect((await staff.delete('/api/guardians/999999')).status).toBe(404);
      const res = await staff.delete(`/api/guardians/${id}`);
      expect(res.status).toBe(200);
      expect(res.body.message).toBe(GUARDIAN_MSG.erased);

      expect(await guardianRow(email)).toBeUndefined();
      expect(await db()('guardian_follows').where({ guardian_id: id })).toHaveLength(0);
      expect(await db()('guardian_carts').where({ guardian_id: id })).toHaveLength(0);
      expect(await db()('outbox_messages').where({ recipient: email })).toHaveLength(0);
      const kept = await db()('outbox_messages').whereIn('id', messageIds).orderBy('id').select('kind', 'status', 'recipient', 'subject', 'text', 'html', 'school_id');
      expect(kept.map((row) => [row.kind, row.status, Number(row.school_id)])).toEqual([
        ['guardian_confirm', 'sent', school.id],
        ['closing_reminder', 'cancelled', school.id],
      ]);
      for (const row of kept) expect([row.recipient, row.subject, row.text, row.html]).toEqual(['erased@erased.invalid', '[erased]', '', '']);
      expect(JSON.stringify(await db()('outbox_messages').select('recipient', 'subject', 'text'))).not.toContain(email);
    });
  });

  describe("a child's erasure", () => {
    it('removes every follow of the child and withdraws the queued season messages of guardians left with nothing in that school', async () => {
      const roster = await staff.post(`/api/albums/${albumId}/students`, { students: [{ name: 'Tumelo Sechele', guardianEmail: 'tumelo.dad@family.example' }] });
      const tumelo = (roster.body.students as Student[])[0] as Student;
      const childOnly = address('child-only');
      await new Client(server.url).get(path(await subscribe(await familyWith(server, tumelo.code), childOnly)));
      const alsoSchool = address('also-school');
      const browser = await familyWith(server, tumelo.code);
      expect((await browser.post(`/api/schools/${school.slug}/verify`, { password })).status).toBe(200);
      await new Client(server.url).get(path(await subscribe(browser, alsoSchool)));
      const [a, b] = [(await guardianRow(childOnly)).id as number, (await guardianRow(alsoSchool)).id as number];

      const { outbox } = server.runtime.services;
      const later = Date.now() + 5 * 86_400_000;
      for (const [guardianId, to] of [
        [a, childOnly],
        [b, alsoSchool],
      ] as const) {
        await outbox.enqueue({ kind: 'closing_reminder', to, subject: 'Closing soon', text: 'x', html: 'x', guardianId, schoolId: school.id, notBefore: later });
      }
      await outbox.enqueue({ kind: 'photos_online', to: 'tumelo.dad@family.example', subject: 'Online', text: 'x', html: 'x', schoolId: school.id, notBefore: later });

      const erased = await staff.post(`/api/students/${tumelo.id}/erase`);
      expect(erased.status, JSON.stringify(erased.body)).toBe(200);
      expect(await db()('guardian_follows').where({ student_id: tumelo.id })).toHaveLength(0);
      expect(await followsOf(a)).toEqual([]);
      expect(await followsOf(b)).toEqual([{ schoolId: school.id, studentId: null, confirmed: true }]);
      const status = async (to: string) => (await db()('outbox_messages').where({ recipient: to }).whereIn('kind', ['closing_reminder', 'photos_online']).first()).status;
      expect(await status(childOnly)).toBe('cancelled');
      expect(await status(alsoSchool)).toBe('queued');
      expect(await status('tumelo.dad@family.example')).toBe('cancelled');
    });
  });
});
