import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUARDIAN_CONSENT_MSG } from '../../contract/guardian-consent';
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
    // Behind a proxy, so each test family can come from its own address (the per-client limits stay real).
    server = await startTestServer({ SMTP_URL: mail.url, TRUST_PROXY: 'true' });
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
    const match = /https?:\/\/\S+\/confirm-email\?token=[A-Za-z0-9_%-]+/.exec(text);
    if (!match) throw new Error(`no confirm link in:\n${text}`);
    return match[0];
  };
  const path = (url: string) => url.slice(server.url.length);
  const tokenOf = (link: string) => new URL(link).searchParams.get('token') as string;
  /** A person's press of the button on the link's page: a POST from the shop's own page. */
  const press = (link: string, browser: Client = new Client(server.url)) => browser.post('/api/guardians/confirm', { token: tokenOf(link) }, { Origin: server.url });

  /** A family's own network address: the limit of 30 requests per client counts each family apart. */
  const family = () => ({ 'X-Forwarded-For': `10.${Math.floor(counter / 250) % 250}.${counter % 250}.${++counter % 250}` });

  /** Subscribes from the browser and returns the confirmation link that arrives. */
  async function subscribe(browser: Client, email: string, marketing?: boolean): Promise<string> {
    const before = mail.messages.length;
    const res = await browser.post('/api/guardians/subscribe', { email, consent: true, ...(marketing === undefined ? {} : { marketing }) }, family());
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

    it('double opt-in: the link\'s page changes nothing; its button stores the consent version and time and the marketing choice and sets the guardian cookie; only the confirmation goes out before', async () => {
      const browser = await schoolBrowser();
      const email = address('mma.kabo');
      const before = mail.messages.length;
      const started = Date.now();
      const res = await browser.post('/api/guardians/subscribe', { email: email.toUpperCase(), consent: true, marketing: true });
      expect(res.status).toBe(202);
      // Subscribing sets nothing that identifies the address's guardian.
      expect(res.headers.getSetCookie()).toEqual([]);
      const message = await mail.waitFor(email, before);
      expect(message.subject).toBe(GUARDIAN_MSG.confirmSubject('Test Studio'));
      expect(message.text).toContain(school.name);
      expect(message.raw).not.toMatch(/^List-Unsubscribe:/m);
      const link = confirmLinkIn(message.text);

      expect(link.startsWith(`${server.config.publicUrl}/confirm-email?token=`)).toBe(true);

      // Asking is not consent: the row holds no consent and no marketing until a person confirms.
      const row = await guardianRow(email);
      expect(row.consent_version).toBe('');
      expect(Number(row.marketing)).toBe(0);
      expect(row.marketing_at).toBeNull();
      expect(row.confirmed_at).toBeNull();
      expect(await followsOf(row.id)).toEqual([{ schoolId: school.id, studentId: null, confirmed: false }]);
      expect((await browser.get('/api/guardians/me')).body).toEqual({ subscribed: false, confirmed: false, email: null, unsubscribed: false });
      // Only the confirmation has gone out to the address.
      await mail.noMoreThan(1, { to: email, within: 500 });

      // Mail scanners and link previews open the link (and the API's old link): nothing changes, no cookie.
      const scanner = new Client(server.url);
      for (const url of [path(link), `/api/guardians/confirm?token=${encodeURIComponent(tokenOf(link))}`]) {
        const opened = await scanner.get(url, { Accept: 'text/html' });
        expect(opened.status).toBeLessThan(500);
        expect(opened.headers.getSetCookie().some((cookie) => cookie.startsWith(`${GUARDIAN_COOKIE}=`))).toBe(false);
      }
      const old = await scanner.get(`/api/guardians/confirm?token=${encodeURIComponent(tokenOf(link))}`);
      expect(old.status).toBe(303);
      expect(old.headers.get('location')).toBe(`/confirm-email?token=${encodeURIComponent(tokenOf(link))}`);
      expect((await guardianRow(email)).confirmed_at).toBeNull();

      const pressed = Date.now();
      const person = new Client(server.url);
      const confirmed = await press(link, person);
      expect(confirmed.status).toBe(200);
      expect(confirmed.body).toEqual({ confirmed: true, email, message: GUARDIAN_MSG.confirmed });
      expect(confirmed.headers.getSetCookie().some((cookie) => cookie.startsWith(`${GUARDIAN_COOKIE}=`) && /httponly/i.test(cookie))).toBe(true);
      const after = await guardianRow(email);
      expect(after.confirmed_at).not.toBeNull();
      expect(Number(after.confirmed_at)).toBeGreaterThanOrEqual(pressed);
      // The consent is the request's: its version, and the time it was asked.
      expect(after.consent_version).toBe(CONSENT.version);
      expect(Number(after.consent_at)).toBeGreaterThanOrEqual(started);
      expect(Number(after.consent_at)).toBeLessThanOrEqual(pressed);
      expect(Number(after.marketing)).toBe(1);
      expect(Number(after.marketing_at)).toBeGreaterThanOrEqual(started);
      expect(await followsOf(row.id)).toEqual([{ schoolId: school.id, studentId: null, confirmed: true }]);
      // The subscribing browser never got the cookie; the one that pressed the button did.
      expect((await browser.get('/api/guardians/me')).body).toMatchObject({ subscribed: false });
      expect((await person.get('/api/guardians/me')).body).toMatchObject({ subscribed: true, confirmed: true, email: 'm…@family.example' });
    });

    it('stores the marketing opt-in separately: without it, only the consent', async () => {
      const email = address('no-offers');
      expect((await press(await subscribe(await schoolBrowser(), email))).status).toBe(200);
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
      expect((await press(link)).status).toBe(200);
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
      expect((await stranger.get('/api/guardians/me')).body).toMatchObject({ subscribed: false, confirmed: false });

      // The first link, pressed again, is spent and confirms nothing new.
      expect((await press(link)).body.code).toBe('CONFIRM_LINK_USED');
      expect((await followsOf(id))[1]?.confirmed).toBe(false);
      expect((await press(second)).status).toBe(200);
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
    it('answers 400 for a missing, unknown or expired token, and changes nothing', async () => {
      const anon = new Client(server.url);
      const missing = await anon.post('/api/guardians/confirm', {}, { Origin: server.url });
      expect(missing.status).toBe(400);
      expect(missing.body.errors.token).toBe(GUARDIAN_CONSENT_MSG.tokenRequired);
      expect((await anon.post('/api/guardians/confirm', { token: 42 }, { Origin: server.url })).status).toBe(400);
      expect((await anon.post('/api/guardians/confirm', { token: 'x'.repeat(601) }, { Origin: server.url })).status).toBe(400);
      const unknown = await anon.post('/api/guardians/confirm', { token: 'nope' }, { Origin: server.url });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ code: 'CONFIRM_LINK_INVALID', message: GUARDIAN_MSG.confirmLinkInvalid });
      expect((await anon.get('/api/guardians/confirm')).body.code).toBe('TOKEN_REQUIRED');

      const email = address('late');
      const link = await subscribe(await schoolBrowser(), email);
      const guardianId = (await guardianRow(email)).id;
      // Seven days and a moment later.
      await db()('guardian_confirmations').where({ guardian_id: guardianId }).update({ expires_at: Date.now() - 1 });
      const expired = await press(link, anon);
      expect(expired.status).toBe(400);
      expect(expired.body.code).toBe('CONFIRM_LINK_INVALID');
      expect(expired.headers.getSetCookie()).toEqual([]);
      expect((await guardianRow(email)).confirmed_at).toBeNull();
      // The service decides by the clock it is given: a link is good until its end.
      await db()('guardian_confirmations').where({ guardian_id: guardianId }).update({ expires_at: Date.now() + GUARDIAN_CONFIRM_TTL_MS });
      await expect(server.runtime.services.guardians.confirm(tokenOf(link), Date.now() + GUARDIAN_CONFIRM_TTL_MS + 1)).rejects.toMatchObject({ status: 400 });
    });

    it('takes a press only from the shop\'s own page: no Origin or another site is 403 and confirms nothing', async () => {
      const email = address('scanner');
      const link = await subscribe(await schoolBrowser(), email);
      const body = { token: tokenOf(link) };
      for (const headers of [{}, { Origin: 'https://evil.example' }, { Origin: 'null' }, { Origin: server.url, 'Sec-Fetch-Site': 'cross-site' }] as Record<string, string>[]) {
        const res = await new Client(server.url).post('/api/guardians/confirm', body, headers);
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ code: 'CROSS_SITE', message: GUARDIAN_CONSENT_MSG.confirmFromPage });
        expect(res.headers.getSetCookie()).toEqual([]);
      }
      expect((await guardianRow(email)).confirmed_at).toBeNull();
      expect((await press(link)).status).toBe(200);
    });

    it('a link works once: a second press is 400 CONFIRM_LINK_USED and sets no cookie', async () => {
      const email = address('twice');
      const link = await subscribe(await schoolBrowser(), email);
      expect((await press(link)).status).toBe(200);
      const again = await press(link);
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ code: 'CONFIRM_LINK_USED', message: GUARDIAN_CONSENT_MSG.linkUsed });
      expect(again.headers.getSetCookie()).toEqual([]);
    });

    it('never undoes a later unsubscribe: neither a used link nor one made before the unsubscribe', async () => {
      const email = address('changed-mind');
      const browser = await schoolBrowser();
      const first = await subscribe(browser, email);
      const unused = await subscribe(await schoolBrowser(), email);
      expect((await press(first)).status).toBe(200);
      const token = encodeURIComponent(unsubscribeToken(server.config.jwtSecret, email));
      expect((await new Client(server.url).post(`/api/guardians/unsubscribe?token=${token}`)).status).toBe(200);
      const unsubscribedAt = (await guardianRow(email)).unsubscribed_at;
      expect(unsubscribedAt).not.toBeNull();

      expect((await press(first)).status).toBe(400);
      const old = await press(unused);
      expect(old.status).toBe(400);
      expect(old.body.code).toBe('CONFIRM_LINK_INVALID');
      const row = await guardianRow(email);
      expect(row.unsubscribed_at).toBe(unsubscribedAt);
      // A new request after the unsubscribe is a fresh consent: its link works.
      expect((await press(await subscribe(browser, email))).status).toBe(200);
      expect((await guardianRow(email)).unsubscribed_at).toBeNull();
    });

    it('confirms only the follows its own e-mail named, never a stranger\'s earlier request', async () => {
      const [kabo] = children as [Student];
      const email = address('own-follows');
      // A stranger asks first, for their own child, with the parent's address.
      const strangers = await subscribe(await familyWith(server, kabo.code), email, true);
      // Then the parent asks for the school, and confirms their own link.
      expect((await press(await subscribe(await schoolBrowser(), email, false))).status).toBe(200);
      const id = (await guardianRow(email)).id as number;
      expect(await followsOf(id)).toEqual([
        { schoolId: school.id, studentId: kabo.id, confirmed: false },
        { schoolId: school.id, studentId: null, confirmed: true },
      ]);
      expect(Number((await guardianRow(email)).marketing)).toBe(0);
      // The stranger's link went to the parent; only the parent's press of it would confirm it.
      expect((await press(strangers)).status).toBe(200);
      expect((await followsOf(id)).every((follow) => follow.confirmed)).toBe(true);
    });
  });

  describe('a stranger who types a guardian\'s address', () => {
    const empty = { subscribed: false, confirmed: false, email: null, unsubscribed: false };

    it('gets the same answer and the same /me for a known, an unknown and an unsubscribed address, and no cookie', async () => {
      const known = address('known');
      expect((await press(await subscribe(await schoolBrowser(), known))).status).toBe(200);
      const gone = address('gone');
      expect((await press(await subscribe(await schoolBrowser(), gone))).status).toBe(200);
      const token = encodeURIComponent(unsubscribeToken(server.config.jwtSecret, gone));
      expect((await new Client(server.url).post(`/api/guardians/unsubscribe?token=${token}`)).status).toBe(200);

      const seen = [];
      for (const email of [known, address('unknown'), gone]) {
        const stranger = await schoolBrowser();
        const res = await stranger.post('/api/guardians/subscribe', { email, consent: true }, family());
        seen.push({ status: res.status, body: res.body, cookies: res.headers.getSetCookie(), me: (await stranger.get('/api/guardians/me')).body });
      }
      expect(seen[0]).toEqual({ status: 202, body: { message: GUARDIAN_MSG.subscribeAccepted, consentVersion: CONSENT.version }, cookies: [], me: empty });
      expect(seen[1]).toEqual(seen[0]);
      expect(seen[2]).toEqual(seen[0]);
    });

    it('changes neither the guardian\'s confirmation, consent and marketing nor their cart mirror', async () => {
      const [kabo] = children as [Student];
      const email = address('victim');
      const home = await schoolBrowser();
      expect((await press(await subscribe(home, email, false), home)).status).toBe(200);
      const before = await guardianRow(email);
      const photo = await db()('photos').where({ album_id: albumId }).first('id');
      const cart = photo ? [{ photoId: Number(photo.id), productType: 'print', quantity: 1 }] : [];
      const mirrored = async () => (await home.put('/api/guardians/cart', { items: cart })).body;
      expect(await mirrored()).toEqual({ mirrored: true });

      const stranger = await familyWith(server, kabo.code);
      expect((await stranger.post('/api/guardians/subscribe', { email, consent: true, marketing: true }, family())).status).toBe(202);
      const after = await guardianRow(email);
      for (const field of ['confirmed_at', 'consent_version', 'consent_at', 'marketing', 'marketing_at', 'unsubscribed_at']) expect([field, after[field]]).toEqual([field, before[field]]);
      expect((await home.get('/api/guardians/me')).body).toEqual({ subscribed: true, confirmed: true, email: 'v…@family.example', unsubscribed: false });
      expect(await mirrored()).toEqual({ mirrored: true });
      expect((await stranger.get('/api/guardians/me')).body).toEqual(empty);
      expect((await stranger.put('/api/guardians/cart', { items: cart })).body).toEqual({ mirrored: false });

      // An address that asked and never confirmed keeps no consent from a stranger either.
      const waiting = address('waiting');
      await subscribe(await schoolBrowser(), waiting, false);
      const pending = await guardianRow(waiting);
      await subscribe(await familyWith(server, kabo.code), waiting, true);
      const still = await guardianRow(waiting);
      expect([still.consent_version, Number(still.marketing), still.marketing_at, still.confirmed_at]).toEqual([pending.consent_version, 0, null, null]);
    });
  });

  describe('unsubscribing in one click', () => {
    it('works from the List-Unsubscribe URL of a delivered message: a form POST with no cookie and no Origin, and withdraws queued reminders', async () => {
      const email = address('one-click');
      const link = await subscribe(await schoolBrowser(), email, true);
      expect((await press(link)).status).toBe(200);
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
      expect((await press(again)).status).toBe(200);
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

  describe('unconfirmed addresses go (docs/outreach.md, "Unconfirmed addresses go")', () => {
    const DAY = 86_400_000;
    it('deletes a guardian who never confirmed 14 days after their last link ended, with links, follows and the confirmation e-mail\'s trace; keeps the others', async () => {
      const [kabo] = children as [Student];
      const stale = address('stale');
      const recent = address('recent');
      const unsubscribed = address('unsub-never-confirmed');
      const confirmed = address('confirmed-with-old-request');
      for (const email of [stale, recent, unsubscribed]) await subscribe(await schoolBrowser(), email);
      expect((await press(await subscribe(await schoolBrowser(), confirmed))).status).toBe(200);
      // A stranger's request for the confirmed address, never pressed.
      await subscribe(await familyWith(server, kabo.code), confirmed);
      const token = encodeURIComponent(unsubscribeToken(server.config.jwtSecret, unsubscribed));
      expect((await new Client(server.url).post(`/api/guardians/unsubscribe?token=${token}`)).status).toBe(200);
      await expect.poll(async () => (await db()('outbox_messages').where({ recipient: stale, kind: 'guardian_confirm' }).first())?.status, { timeout: 5000 }).toBe('sent');

      const now = Date.now();
      const ids = Object.fromEntries(await Promise.all([stale, recent, unsubscribed, confirmed].map(async (email) => [email, (await guardianRow(email)).id as number])));
      const endLinks = (email: string, at: number) => db()('guardian_confirmations').where({ guardian_id: ids[email] }).whereNull('used_at').update({ expires_at: at });
      await endLinks(stale, now - 14 * DAY - 1000);
      await endLinks(recent, now - 13 * DAY);
      await endLinks(unsubscribed, now - 15 * DAY);
      await endLinks(confirmed, now - 15 * DAY);
      // Rows and follows as old as their links (the job never takes a row younger than the cutoff).
      for (const id of Object.values(ids)) {
        await db()('guardians').where({ id }).update({ created_at: now - 30 * DAY });
        await db()('guardian_follows').where({ guardian_id: id }).whereNull('confirmed_at').update({ created_at: now - 30 * DAY });
      }

      const purged = await server.runtime.services.guardians.purgeUnconfirmed(now);
      expect(purged.guardians).toBeGreaterThanOrEqual(1);

      expect(await guardianRow(stale)).toBeUndefined();
      expect(await db()('guardian_follows').where({ guardian_id: ids[stale] })).toHaveLength(0);
      expect(await db()('guardian_confirmations').where({ guardian_id: ids[stale] })).toHaveLength(0);
      expect(await db()('outbox_messages').where({ recipient: stale })).toHaveLength(0);
      expect(JSON.stringify(await db()('outbox_messages').select('recipient', 'text'))).not.toContain(stale);

      expect(await guardianRow(recent)).toBeDefined();
      expect(await db()('guardian_confirmations').where({ guardian_id: ids[recent] })).toHaveLength(1);
      // An unsubscribed address keeps its row (that is its unsubscribe), without the old request.
      expect((await guardianRow(unsubscribed)).unsubscribed_at).not.toBeNull();
      expect(await db()('guardian_confirmations').where({ guardian_id: ids[unsubscribed] })).toHaveLength(0);
      expect(await followsOf(ids[unsubscribed] as number)).toEqual([]);
      // A confirmed guardian stays, with what they confirmed; the stranger's old request goes.
      expect((await guardianRow(confirmed)).confirmed_at).not.toBeNull();
      expect(await followsOf(ids[confirmed] as number)).toEqual([{ schoolId: school.id, studentId: null, confirmed: true }]);
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
        // Asking is not consent: staff see "not confirmed", no consent and no marketing opt-in yet.
        marketing: false,
        unsubscribed: false,
        consentVersion: null,
        consentAt: null,
        follows: [{ studentId: kabo.id, studentName: 'Kabo Ramotswe', albumName: 'Class 3C' }],
      });
      // Once confirmed, the consent is the request's.
      const link = confirmLinkIn((await mail.waitFor(email)).text);
      expect((await press(link)).status).toBe(200);
      const confirmed = ((await photographer.get(`/api/schools/${school.id}/guardians`)).body.guardians as { email: string }[]).find((g) => g.email === email);
      expect(confirmed).toMatchObject({ confirmed: true, marketing: true, consentVersion: CONSENT.version });
      expect(Date.parse((confirmed as unknown as { consentAt: string }).consentAt)).toBeGreaterThan(Date.now() - 60_000);
    });

    it('erase a guardian: the row, follows and cart go, queued messages are cancelled and past ones keep only their counts', async () => {
      const email = address('erase-me');
      const link = await subscribe(await schoolBrowser(), email);
      expect((await press(link)).status).toBe(200);
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
      expect((await press(await subscribe(await familyWith(server, tumelo.code), childOnly))).status).toBe(200);
      const alsoSchool = address('also-school');
      const browser = await familyWith(server, tumelo.code);
      expect((await browser.post(`/api/schools/${school.slug}/verify`, { password })).status).toBe(200);
      expect((await press(await subscribe(browser, alsoSchool))).status).toBe(200);
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
