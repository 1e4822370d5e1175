import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIRM_CODE_MAX_TRIES, CONFIRM_CODE_TTL_MS, GUARDIAN_PHONE_MSG } from '../../contract/guardian-phone';
import { CONSENT, GUARDIAN_MSG } from '../../contract/messages';
import { PHONE_MSG } from '../../contract/phone';
import { smsSegments } from '../../contract/sms-text';
import type { Student } from '../../contract/students';
import { Client, describeApi, staffClient, startTestServer, type TestServer } from '../../test/harness';
import { createAlbum, createSchool } from '../../test/fixtures';
import { startMailCatcher, type MailCatcher } from '../../test/mail-catcher';
import { startSmsc, type TestSmsc } from '../../test/smsc';
import { GUARDIAN_COOKIE } from '../outreach/guardian-cookie';
import { unsubscribeToken } from '../outreach/unsubscribe';
import { familyWith } from '../students/students.test-helpers';
import { ERASED_RECIPIENT } from './guardians.repository';

/** Consent by phone over HTTP (docs/outreach.md, "Double opt-in: by phone"; docs/sms.md, "Consent by phone"). */
describeApi('guardians by phone', () => {
  let server: TestServer;
  let mail: MailCatcher;
  let smsc: TestSmsc;
  let staff: Client;
  let school: { id: number; name: string; slug: string };
  let children: Student[];
  const password = 'school-pass';
  let counter = 0;
  /** A fresh Botswana mobile number each time, as a parent might type it ("71 234 567") and as stored. */
  const mobile = () => {
    const digits = String(100_000 + ((++counter * 7919) % 900_000));
    return { typed: `71 ${digits.slice(0, 3)} ${digits.slice(3)}`, e164: `+26771${digits}` };
  };
  const address = (name: string) => `${name}-${++counter}@phone-family.example`;
  const db = () => server.runtime.knex;
  /** A family's own network address, so the per-client limits count each test apart. */
  const family = () => ({ 'X-Forwarded-For': `10.9.${Math.floor(++counter / 250) % 250}.${counter % 250}` });
  const own = () => ({ Origin: server.url });

  beforeAll(async () => {
    mail = await startMailCatcher();
    smsc = await startSmsc();
    server = await startTestServer({ SMTP_URL: mail.url, TRUST_PROXY: 'true', BUSINESS_NAME: 'Lesedi Photo Studio' }, { smsUrl: smsc.url });
    staff = await staffClient(server, 'admin');
    school = await createSchool(server, { name: 'Maru-a-Pula Primary', password });
    const albumId = await createAlbum(server, school.id, { name: 'Class 3C' });
    const res = await staff.post(`/api/albums/${albumId}/students`, { students: [{ name: 'Kabo Ramotswe' }, { name: 'Neo Molefe' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    children = res.body.students as Student[];
  });
  afterAll(async () => {
    await server?.close();
    await smsc?.stop();
    await mail?.close();
  });

  async function schoolBrowser(): Promise<Client> {
    const browser = new Client(server.url);
    expect((await browser.post(`/api/schools/${school.slug}/verify`, { password })).status).toBe(200);
    return browser;
  }

  /** The SMS that reaches `phone` after `before` messages, waiting for it. */
  async function smsTo(phone: string, before: number) {
    const all = await smsc.waitFor(before + 1, 10_000);
    const found = all.slice(before).find((message) => message.to === phone);
    if (found) return found;
    await expect.poll(() => smsc.messages.slice(before).some((message) => message.to === phone), { timeout: 10_000 }).toBe(true);
    return smsc.messages.slice(before).find((message) => message.to === phone)!;
  }
  const codeIn = (text: string): string => {
    const match = /^(\d{6}) /.exec(text);
    if (!match) throw new Error(`no code in: ${text}`);
    return match[1] as string;
  };

  /** Subscribes the number from the browser and returns the code its SMS brings. */
  async function subscribe(browser: Client, phone: string, extra: Record<string, unknown> = {}): Promise<string> {
    const before = smsc.messages.length;
    const res = await browser.post('/api/guardians/subscribe', { phone, consent: true, ...extra }, family());
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    return codeIn((await smsTo(phone.startsWith('+') ? phone : `+267${phone.replace(/\s/g, '')}`, before)).text);
  }
  const confirm = (browser: Client, body: Record<string, unknown>, headers: Record<string, string> = own()) => browser.post('/api/guardians/confirm', body, headers);
  const guardianByPhone = (phone: string) => db()('guardians').where({ phone }).first();
  const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  describe('subscribing by phone', () => {
    it('sends one SMS with a 6-digit code and nothing else, stores only its HMAC, and records no consent until the code is entered', async () => {
      const browser = await schoolBrowser();
      const { typed, e164 } = mobile();
      const mailBefore = mail.messages.length;
      const before = smsc.messages.length;
      const res = await browser.post('/api/guardians/subscribe', { phone: typed, consent: true, marketing: true }, family());
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ message: GUARDIAN_PHONE_MSG.subscribeAccepted, consentVersion: CONSENT.version });
      expect(res.headers.getSetCookie()).toEqual([]);

      const sms = await smsTo(e164, before);
      const code = codeIn(sms.text);
      expect(sms.text).toBe(`${code} is your Lesedi Photo Studio code to get SMS about your child's school photos. It works for 15 minutes. Did not ask? Ignore this SMS.`);
      expect(sms.text).not.toMatch(/https?:|\/s\//);
      expect(smsSegments(sms.text)).toMatchObject({ encoding: 'GSM-7', segments: 1 });
      expect(sms.dataCoding).toBe(0);
      // Only that SMS: no other SMS to the number, and no e-mail at all.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smsc.messages.slice(before).filter((message) => message.to === e164)).toHaveLength(1);
      await mail.noMoreThan(0, { after: mailBefore, within: 200 });

      const row = await guardianByPhone(e164);
      expect(row).toMatchObject({ email: null, phone: e164, consent_version: '', confirmed_at: null, phone_confirmed_at: null });
      expect(Number(row.marketing)).toBe(0);
      const request = await db()('guardian_confirmations').where({ guardian_id: row.id }).first();
      expect(request).toMatchObject({ channel: 'phone', consent_version: CONSENT.version, code_tries: 0, used_at: null });
      expect(Number(request.marketing)).toBe(1);
      expect(Number(request.expires_at) - Number(request.created_at)).toBe(CONFIRM_CODE_TTL_MS);
      expect(JSON.stringify(request)).not.toContain(code);
      const outboxRow = await db()('outbox_messages').where({ recipient: e164 }).first();
      expect(outboxRow).toMatchObject({ channel: 'sms', kind: 'guardian_phone_code', subject: '', html: '' });
    });

    it('answers the same (status and body, no cookie) for a known, an unknown and an unsubscribed number', async () => {
      const known = mobile().e164;
      const unsubscribed = mobile().e164;
      const unknown = mobile().e164;
      const browser = await schoolBrowser();
      expect((await confirm(browser, { phone: known, code: await subscribe(browser, known) })).status).toBe(200);
      const token = encodeURIComponent(unsubscribeToken(server.config.jwtSecret, unsubscribed));
      expect((await new Client(server.url).post(`/api/guardians/unsubscribe?token=${token}`)).status).toBe(200);

      const answers = [];
      for (const phone of [known, unknown, unsubscribed]) {
        const res = await (await schoolBrowser()).post('/api/guardians/subscribe', { phone, consent: true }, family());
        answers.push({ status: res.status, body: res.body, cookies: res.headers.getSetCookie() });
      }
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
      expect(answers[0]).toEqual({ status: 202, body: { message: GUARDIAN_PHONE_MSG.subscribeAccepted, consentVersion: CONSENT.version }, cookies: [] });
      // The unsubscribed number stays unsubscribed until a person enters a code.
      expect((await guardianByPhone(unsubscribed)).unsubscribed_at).not.toBeNull();
    });

    it('answers 400 naming phone for a landline or an impossible number, and for neither a phone nor an address; sends nothing', async () => {
      const browser = await schoolBrowser();
      const before = smsc.messages.length;
      const landline = await browser.post('/api/guardians/subscribe', { phone: '391 2345', consent: true }, family());
      expect(landline.status).toBe(400);
      expect(landline.body.errors.phone).toBe(PHONE_MSG.notMobile);
      const impossible = await browser.post('/api/guardians/subscribe', { phone: '12', consent: true }, family());
      expect(impossible.status).toBe(400);
      expect(impossible.body.errors.phone).toBe(PHONE_MSG.invalid);
      const neither = await browser.post('/api/guardians/subscribe', { consent: true }, family());
      expect(neither.status).toBe(400);
      expect(neither.body).toMatchObject({ message: GUARDIAN_PHONE_MSG.contactRequired, errors: { phone: GUARDIAN_PHONE_MSG.contactRequired, email: GUARDIAN_PHONE_MSG.contactRequired } });
      const unticked = mobile().e164;
      const noConsent = await browser.post('/api/guardians/subscribe', { phone: unticked }, family());
      expect(noConsent.status).toBe(400);
      expect(Object.keys(noConsent.body.errors)).toContain('consent');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(smsc.messages.slice(before).filter((message) => ['+2673912345', unticked].includes(message.to))).toEqual([]);
      expect(await db()('outbox_messages').whereIn('recipient', ['+2673912345', unticked])).toEqual([]);
      expect(await db()('guardians').where({ phone: unticked }).first()).toBeUndefined();
    });

    it('is limited per number: the sixth request for one number within the hour is 429, from anywhere', async () => {
      const { e164 } = mobile();
      for (let i = 0; i < 5; i++) expect((await (await schoolBrowser()).post('/api/guardians/subscribe', { phone: e164, consent: true }, family())).status).toBe(202);
      const sixth = await (await schoolBrowser()).post('/api/guardians/subscribe', { phone: e164, consent: true }, family());
      expect(sixth.status).toBe(429);
      expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('an address and a number asked together go on one new guardian; a known address keeps its row and the number gets its own', async () => {
      const browser = await schoolBrowser();
      const email = address('both');
      const { e164 } = mobile();
      const mailBefore = mail.messages.length;
      const before = smsc.messages.length;
      const res = await browser.post('/api/guardians/subscribe', { email, phone: e164, consent: true }, family());
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ message: GUARDIAN_PHONE_MSG.subscribeAcceptedBoth, consentVersion: CONSENT.version });
      await mail.waitFor(email, mailBefore);
      const code = codeIn((await smsTo(e164, before)).text);
      const row = await guardianByPhone(e164);
      expect(row).toMatchObject({ email, phone: e164 });
      expect(await db()('guardian_confirmations').where({ guardian_id: row.id }).orderBy('id').pluck('channel')).toEqual(['email', 'phone']);
      // The code confirms the number, not the address: nothing is e-mailed because a phone was confirmed.
      expect((await confirm(browser, { phone: e164, code })).status).toBe(200);
      const after = await guardianByPhone(e164);
      expect(after.phone_confirmed_at).not.toBeNull();
      expect(after.confirmed_at).toBeNull();

      // A known address with a new number: the address's guardian is not touched, the number gets its own row.
      const second = mobile().e164;
      const other = await schoolBrowser();
      expect((await other.post('/api/guardians/subscribe', { email, phone: second, consent: true }, family())).status).toBe(202);
      const phoneRow = await guardianByPhone(second);
      expect(phoneRow.email).toBeNull();
      expect(phoneRow.id).not.toBe(row.id);
      expect((await db()('guardians').where({ id: row.id }).first()).phone).toBe(e164);
    });
  });

  describe('confirming with the code', () => {
    it('the right code from the shop\'s page confirms the number, its consent and follows, and sets the guardian cookie; /me shows the number partly hidden; staff see it', async () => {
      const [kabo] = children as [Student];
      const browser = await familyWith(server, kabo.code);
      const { typed, e164 } = mobile();
      const started = Date.now();
      const code = await subscribe(browser, typed, { marketing: true });
      expect((await browser.get('/api/guardians/me')).body).toEqual({ subscribed: false, confirmed: false, email: null, unsubscribed: false });

      const res = await confirm(browser, { phone: typed, code: `${code.slice(0, 3)} ${code.slice(3)}` });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ confirmed: true, phone: e164, message: GUARDIAN_PHONE_MSG.confirmed });
      expect(res.headers.getSetCookie().some((cookie) => cookie.startsWith(`${GUARDIAN_COOKIE}=`) && /httponly/i.test(cookie))).toBe(true);
      const me = (await browser.get('/api/guardians/me')).body;
      expect(me).toEqual({ subscribed: true, confirmed: true, email: null, phone: `+267 7••• ••${e164.slice(-2)}`, unsubscribed: false });

      const row = await guardianByPhone(e164);
      expect(Number(row.phone_confirmed_at)).toBeGreaterThanOrEqual(started);
      expect(row.confirmed_at).toBeNull();
      expect(row.consent_version).toBe(CONSENT.version);
      expect(Number(row.consent_at)).toBeGreaterThanOrEqual(started);
      expect(Number(row.marketing)).toBe(1);
      const follows = await db()('guardian_follows').where({ guardian_id: row.id }).select('student_id', 'confirmed_at');
      expect(follows.map((f: { student_id: number; confirmed_at: unknown }) => [Number(f.student_id), f.confirmed_at !== null])).toEqual([[kabo.id, true]]);

      const listed = await staff.get(`/api/schools/${school.id}/guardians`);
      const guardian = (listed.body.guardians as { phone: string | null }[]).find((g) => g.phone === e164);
      expect(guardian).toMatchObject({ email: null, phone: e164, confirmed: true, phoneConfirmed: true, marketing: true, consentVersion: CONSENT.version });
    });

    it('a wrong code is 400 CONFIRM_CODE_WRONG with the tries left; the fifth wrong one ends the code, even the right one after it', async () => {
      const browser = await schoolBrowser();
      const { e164 } = mobile();
      const code = await subscribe(browser, e164);
      for (let left = CONFIRM_CODE_MAX_TRIES - 1; left >= 1; left--) {
        const res = await confirm(browser, { phone: e164, code: wrongCode(code) });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 'CONFIRM_CODE_WRONG', triesLeft: left, message: GUARDIAN_PHONE_MSG.codeWrong(left), errors: { code: GUARDIAN_PHONE_MSG.codeWrong(left) } });
        expect(res.headers.getSetCookie()).toEqual([]);
      }
      const fifth = await confirm(browser, { phone: e164, code: wrongCode(code) });
      expect(fifth.status).toBe(400);
      expect(fifth.body).toMatchObject({ code: 'CONFIRM_CODE_ENDED', triesLeft: 0, message: GUARDIAN_PHONE_MSG.codeEnded });
      const right = await confirm(browser, { phone: e164, code });
      expect(right.status).toBe(400);
      expect(right.body.code).toBe('CONFIRM_CODE_ENDED');
      expect((await guardianByPhone(e164)).phone_confirmed_at).toBeNull();
      // A new code works.
      const fresh = await subscribe(browser, e164);
      expect((await confirm(browser, { phone: e164, code: fresh })).status).toBe(200);
    });

    it('counts tries sent at once: of twenty wrong codes at the same moment only five count, and the right one is refused after', async () => {
      const browser = await schoolBrowser();
      const { e164 } = mobile();
      const code = await subscribe(browser, e164);
      const guesses = Array.from({ length: 20 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
      const answers = await Promise.all(guesses.map((guess) => confirm(browser, { phone: e164, code: guess })));
      expect(answers.every((res) => res.status === 400)).toBe(true);
      expect(answers.filter((res) => res.body.code === 'CONFIRM_CODE_WRONG')).toHaveLength(CONFIRM_CODE_MAX_TRIES - 1);
      const row = await guardianByPhone(e164);
      expect(Number((await db()('guardian_confirmations').where({ guardian_id: row.id }).first()).code_tries)).toBe(CONFIRM_CODE_MAX_TRIES);
      expect((await confirm(browser, { phone: e164, code })).body.code).toBe('CONFIRM_CODE_ENDED');
    });

    it('a code expires after 15 minutes (CONFIRM_CODE_EXPIRED) and works once (CONFIRM_CODE_USED)', async () => {
      const browser = await schoolBrowser();
      const { e164 } = mobile();
      const code = await subscribe(browser, e164);
      const row = await guardianByPhone(e164);
      // The clock 15 minutes on: the service is asked at that moment.
      await expect(server.runtime.services.guardians.confirmCode(e164, code, { schools: [school.id], albums: [], students: [] }, Date.now() + CONFIRM_CODE_TTL_MS + 1)).rejects.toMatchObject({
        status: 400,
        code: 'CONFIRM_CODE_EXPIRED',
      });
      // And over HTTP, a request made 15 minutes ago.
      await db()('guardian_confirmations').where({ guardian_id: row.id }).update({ created_at: Date.now() - CONFIRM_CODE_TTL_MS - 1000, expires_at: Date.now() - 1000 });
      const expired = await confirm(browser, { phone: e164, code });
      expect(expired.status).toBe(400);
      expect(expired.body).toMatchObject({ code: 'CONFIRM_CODE_EXPIRED', message: GUARDIAN_PHONE_MSG.codeExpired });
      expect((await guardianByPhone(e164)).phone_confirmed_at).toBeNull();

      const fresh = await subscribe(browser, e164);
      expect((await confirm(browser, { phone: e164, code: fresh })).status).toBe(200);
      const again = await confirm(browser, { phone: e164, code: fresh });
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ code: 'CONFIRM_CODE_USED', message: GUARDIAN_PHONE_MSG.codeUsed });
    });

    it('only from the shop\'s own pages (403 CROSS_SITE), only on a browser holding what the request asked for; a malformed code or number is 400 naming it', async () => {
      const [, neo] = children as [Student, Student];
      const browser = await familyWith(server, neo.code);
      const { e164 } = mobile();
      const code = await subscribe(browser, e164);
      for (const headers of [{ Origin: 'https://evil.example' }, {} as Record<string, string>, { Origin: server.url, 'Sec-Fetch-Site': 'cross-site' }]) {
        const res = await confirm(browser, { phone: e164, code }, headers);
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ code: 'CROSS_SITE', message: GUARDIAN_PHONE_MSG.confirmFromPage });
      }
      // Someone else's browser (the school's password, not this child) cannot make the request its own.
      const stranger = await schoolBrowser();
      const elsewhere = await confirm(stranger, { phone: e164, code });
      expect(elsewhere.status).toBe(400);
      expect(elsewhere.body.code).toBe('CONFIRM_CODE_INVALID');
      expect(elsewhere.headers.getSetCookie()).toEqual([]);
      // An unknown number answers the same.
      expect((await confirm(browser, { phone: mobile().e164, code })).body).toMatchObject({ code: 'CONFIRM_CODE_INVALID', message: GUARDIAN_PHONE_MSG.codeNone });
      const badCode = await confirm(browser, { phone: e164, code: '12345' });
      expect(badCode.status).toBe(400);
      expect(badCode.body.errors.code).toBe(GUARDIAN_PHONE_MSG.codeRequired);
      const landline = await confirm(browser, { phone: '391 2345', code });
      expect(landline.body.errors.phone).toBe(PHONE_MSG.notMobile);
      // None of that counted against the code or confirmed it; the family's own browser still can.
      expect((await guardianByPhone(e164)).phone_confirmed_at).toBeNull();
      expect((await confirm(browser, { phone: e164, code })).status).toBe(200);
    });

    it('the e-mail link path answers as before', async () => {
      const browser = await schoolBrowser();
      const email = address('link');
      const before = mail.messages.length;
      const res = await browser.post('/api/guardians/subscribe', { email, consent: true }, family());
      expect(res.body).toEqual({ message: GUARDIAN_MSG.subscribeAccepted, consentVersion: CONSENT.version });
      const text = (await mail.waitFor(email, before)).text;
      const token = new URL(/https?:\/\/\S+\/confirm-email\?token=[A-Za-z0-9_%-]+/.exec(text)![0]).searchParams.get('token');
      const pressed = await confirm(new Client(server.url), { token });
      expect(pressed.body).toEqual({ confirmed: true, email, message: GUARDIAN_MSG.confirmed });
      const missing = await confirm(new Client(server.url), { token: '' });
      expect(missing.status).toBe(400);
      expect(Object.keys(missing.body.errors)).toEqual(['token']);
    });
  });

  describe('unsubscribing, erasure and the purge', () => {
    it('an unsubscribe token naming the number: GET changes nothing, POST unsubscribes the phone guardian and withdraws its queued messages', async () => {
      const browser = await schoolBrowser();
      const { e164 } = mobile();
      expect((await confirm(browser, { phone: e164, code: await subscribe(browser, e164) })).status).toBe(200);
      const row = await guardianByPhone(e164);
      const later = Date.now() + 86_400_000;
      await server.runtime.services.outbox.enqueue({ channel: 'sms', kind: 'photos_online', to: e164, subject: '', text: 'Photos are online', html: '', guardianId: row.id, notBefore: later });
      const token = encodeURIComponent(unsubscribeToken(server.config.jwtSecret, e164));
      const info = await new Client(server.url).get(`/api/guardians/unsubscribe?token=${token}`);
      expect(info.body).toEqual({ phone: e164, unsubscribed: false, message: GUARDIAN_PHONE_MSG.unsubscribePrompt });
      expect((await guardianByPhone(e164)).unsubscribed_at).toBeNull();
      const done = await new Client(server.url).post(`/api/guardians/unsubscribe?token=${token}`);
      expect(done.body).toEqual({ phone: e164, unsubscribed: true, message: GUARDIAN_PHONE_MSG.unsubscribed });
      expect((await guardianByPhone(e164)).unsubscribed_at).not.toBeNull();
      expect((await db()('outbox_messages').where({ recipient: e164, kind: 'photos_online' }).first()).status).toBe('cancelled');
      expect((await browser.get('/api/guardians/me')).body).toMatchObject({ subscribed: true, confirmed: false, unsubscribed: true });
      // A number nobody subscribed gets a row marked unsubscribed.
      const stranger = mobile().e164;
      await new Client(server.url).post(`/api/guardians/unsubscribe?token=${encodeURIComponent(unsubscribeToken(server.config.jwtSecret, stranger))}`);
      expect(await guardianByPhone(stranger)).toMatchObject({ email: null, phone: stranger });
    });

    it('one person with both contacts: unsubscribing the number stops both; a fresh consent by e-mail brings back the e-mails only', async () => {
      const browser = await schoolBrowser();
      const email = address('both-unsub');
      const { e164 } = mobile();
      const before = smsc.messages.length;
      const mailBefore = mail.messages.length;
      expect((await browser.post('/api/guardians/subscribe', { email, phone: e164, consent: true }, family())).status).toBe(202);
      const code = codeIn((await smsTo(e164, before)).text);
      const linkOf = async (after: number) => /https?:\/\/\S+\/confirm-email\?token=[A-Za-z0-9_%-]+/.exec((await mail.waitFor(email, after)).text)![0];
      const token = (link: string) => new URL(link).searchParams.get('token');
      expect((await confirm(browser, { phone: e164, code })).status).toBe(200);
      expect((await confirm(new Client(server.url), { token: token(await linkOf(mailBefore)) })).status).toBe(200);
      const confirmed = await guardianByPhone(e164);
      expect(confirmed.confirmed_at).not.toBeNull();
      expect(confirmed.phone_confirmed_at).not.toBeNull();

      const stop = encodeURIComponent(unsubscribeToken(server.config.jwtSecret, e164));
      expect((await new Client(server.url).post(`/api/guardians/unsubscribe?token=${stop}`)).status).toBe(200);
      expect((await guardianByPhone(e164)).unsubscribed_at).not.toBeNull();

      // The address asks again and confirms: e-mails come back, the number stays stopped until its own code.
      const again = mail.messages.length;
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect((await (await schoolBrowser()).post('/api/guardians/subscribe', { email, consent: true }, family())).status).toBe(202);
      expect((await confirm(new Client(server.url), { token: token(await linkOf(again)) })).status).toBe(200);
      const after = await guardianByPhone(e164);
      expect(after.unsubscribed_at).toBeNull();
      expect(after.confirmed_at).not.toBeNull();
      expect(after.phone_confirmed_at).toBeNull();
    });

    it('erasing a phone guardian takes the number out of every message sent to it, with its code requests', async () => {
      const browser = await schoolBrowser();
      const { e164 } = mobile();
      expect((await confirm(browser, { phone: e164, code: await subscribe(browser, e164) })).status).toBe(200);
      const row = await guardianByPhone(e164);
      await expect.poll(async () => (await db()('outbox_messages').where({ recipient: e164 }).first())?.status, { timeout: 5000 }).toBe('sent');
      expect((await staff.delete(`/api/guardians/${row.id}`)).status).toBe(200);
      expect(await guardianByPhone(e164)).toBeUndefined();
      expect(await db()('guardian_confirmations').where({ guardian_id: row.id })).toHaveLength(0);
      expect(await db()('outbox_messages').where({ recipient: e164 })).toHaveLength(0);
      expect(JSON.stringify(await db()('outbox_messages').select('recipient', 'text'))).not.toContain(e164);
      expect(await db()('outbox_messages').where({ recipient: ERASED_RECIPIENT, kind: 'guardian_phone_code' }).first()).toBeDefined();
    });

    it('a number never confirmed goes 14 days after its last code ended, with the code\'s SMS; a confirmed one stays', async () => {
      const DAY = 86_400_000;
      const stale = mobile().e164;
      const kept = mobile().e164;
      await subscribe(await schoolBrowser(), stale);
      const browser = await schoolBrowser();
      expect((await confirm(browser, { phone: kept, code: await subscribe(browser, kept) })).status).toBe(200);
      await expect.poll(async () => (await db()('outbox_messages').where({ recipient: stale }).first())?.status, { timeout: 5000 }).toBe('sent');
      const now = Date.now();
      for (const phone of [stale, kept]) {
        const { id } = await guardianByPhone(phone);
        await db()('guardian_confirmations').where({ guardian_id: id }).update({ expires_at: now - 14 * DAY - 1000 });
        await db()('guardians').where({ id }).update({ created_at: now - 30 * DAY });
        await db()('guardian_follows').where({ guardian_id: id }).update({ created_at: now - 30 * DAY });
      }
      await server.runtime.services.guardians.purgeUnconfirmed(now);
      expect(await guardianByPhone(stale)).toBeUndefined();
      expect(await db()('outbox_messages').where({ recipient: stale })).toHaveLength(0);
      expect(await guardianByPhone(kept)).toMatchObject({ phone: kept });
    });
  });
});
