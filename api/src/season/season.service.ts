/**
 * The season timeline (docs/outreach.md, "The season timeline", "The sending window", "Stopping
 * once the family pays", "Statistics"): a school's schedule, the job that enqueues what is due,
 * the staff's preview, test and statistics, and withdrawing queued messages once a family pays.
 */
import { randomBytes } from 'node:crypto';
import { MSG, OUTREACH_MSG, SEASON_MSG } from '../../contract/messages';
import {
  DEFAULT_REMINDER_DAYS,
  DEFAULT_SEND_FROM,
  DEFAULT_SEND_UNTIL,
  NON_TRANSACTIONAL_KINDS,
  OUTBOX_KINDS,
  SCHOOL_TIMEZONE,
  type MessageSchedule,
  type MessageStats,
  type MessagesPreview,
  type OutboxKind,
  type TestableKind,
} from '../../contract/outreach';
import type { Deps } from '../deps';
import { createDatabase, type Tx } from '../db/database';
import { badRequest, notFound } from '../http/errors';
import type { EmailContent } from '../mail/templates';
import { closingReminderEmail, photosOnlineEmail } from '../mail/season-templates';
import { guardianConfirmEmail } from '../mail/guardian-templates';
import { abandonedCartEmail, unpaidOrderEmail } from '../mail/reminder-templates';
import { CART_LINK_TTL_MS } from '../carts/cart-token';
import type { Outbox } from '../outbox/outbox.service';
import { localDate, nextInWindow, type SendWindow } from '../outreach/send-window';
import { unsubscribeHeaders, unsubscribePageUrl, unsubscribeToken } from '../outreach/unsubscribe';
import { ATTRIBUTION_MS, closesAt, DAY_MS, planSeason, type PlannedMessage, type PlannedRecipient } from './planner';
import { createSeasonRepository, type ScheduleRecord, type SeasonSchool } from './season.repository';
import { closingReminderSms, photosOnlineSms, type SmsContent } from '../sms/season-sms';
import { createShortLinks } from '../sms/short-links';
import { smsOptOutPath } from '../sms/sms-opt-out';
import { writeSms } from '../sms/sms-transaction';
import { SMS_PREVIEW_MSG } from '../../contract/season-sms-messages';

type SeasonDeps = Pick<Deps, 'knex' | 'config' | 'logger'>;

/** Before every SMS's dedupe key: an SMS and its e-mail are two messages (docs/sms.md, "The season by SMS"). */
export const SMS_KEY_PREFIX = 'sms:';
/** A season SMS's gallery link works this long (the season is over by then); its opt-out link never ends. */
const GALLERY_LINK_TTL_MS = 120 * DAY_MS;

const DEFAULT_SCHEDULE: ScheduleRecord = {
  photosOnline: true,
  reminderDays: [...DEFAULT_REMINDER_DAYS],
  sendFrom: DEFAULT_SEND_FROM,
  sendUntil: DEFAULT_SEND_UNTIL,
};

const windowOf = (schedule: ScheduleRecord): SendWindow => ({ from: schedule.sendFrom, until: schedule.sendUntil });

/** One message to compose: what the planner decided, for one recipient. */
interface Composable {
  kind: 'photos_online' | 'closing_reminder';
  school: SeasonSchool;
  className: string | null;
  days: number | null;
  studentName: string | null;
}

export function createSeasonService(deps: SeasonDeps, outbox: Outbox) {
  const repo = createSeasonRepository(deps.knex);
  const database = createDatabase(deps.knex);
  const { publicUrl, jwtSecret, businessName, smsCostThebe } = deps.config;
  const shortLinks = createShortLinks(deps);

  async function school(id: number): Promise<SeasonSchool> {
    const found = await repo.school(id);
    if (!found) throw notFound(MSG.schoolNotFound);
    return found;
  }

  async function schedule(schoolId: number): Promise<{ record: ScheduleRecord; isDefault: boolean }> {
    const saved = await repo.schedule(schoolId);
    return saved ? { record: saved, isDefault: false } : { record: DEFAULT_SCHEDULE, isDefault: true };
  }

  const present = (s: { record: ScheduleRecord; isDefault: boolean }): MessageSchedule => ({
    photosOnline: s.record.photosOnline,
    reminderDays: [...s.record.reminderDays],
    sendFrom: s.record.sendFrom,
    sendUntil: s.record.sendUntil,
    isDefault: s.isDefault,
  });

  /**
   * The school's facts and the planner's decision at `now`: the e-mails, and the same messages by
   * SMS to confirmed phones (`sms[i]` is `messages[i]` by SMS; docs/sms.md, "The season by SMS").
   */
  async function plan(
    target: SeasonSchool,
    now: number,
  ): Promise<{ messages: PlannedMessage[]; sms: PlannedMessage[]; schedule: { record: ScheduleRecord; isDefault: boolean } }> {
    const s = await schedule(target.id);
    const classes = await repo.classes(target.id);
    const students = await repo.students(classes.map((k) => k.id));
    const followers = await repo.followers(target.id);
    const phoneFollowers = await repo.phoneFollowers(target.id);
    const addresses = [...students.flatMap((st) => (st.guardianEmail ? [st.guardianEmail.toLowerCase()] : [])), ...followers.map((f) => f.email.toLowerCase())];
    const unsubscribedEmails = await repo.unsubscribed(addresses);
    const paid = await repo.paid(target.id);
    // A family paid on either contact: a guardian whose address or phone placed a paid order is "paid" on both channels.
    const paidGuardians = new Set([
      ...followers.filter((f) => paid.emails.has(f.email.toLowerCase())).map((f) => f.guardianId),
      ...phoneFollowers.filter((f) => paid.phones.has(f.email)).map((f) => f.guardianId),
    ]);
    const common = {
      now,
      school: { id: target.id, closingDate: target.closingDate },
      schedule: { photosOnline: s.record.photosOnline, reminderDays: s.record.reminderDays, window: windowOf(s.record) },
      classes,
      paidStudentIds: paid.studentIds,
    };
    const messages = planSeason({
      ...common,
      students,
      followers,
      unsubscribedEmails,
      paidEmails: new Set([...paid.emails, ...followers.filter((f) => paidGuardians.has(f.guardianId)).map((f) => f.email.toLowerCase())]),
    });
    // By SMS: the class list's addresses are e-mail only, so no roster recipient; a guardian's unsubscribe is on its follower.
    const sms = planSeason({
      ...common,
      students: students.map((st) => ({ ...st, guardianEmail: null })),
      followers: phoneFollowers,
      unsubscribedEmails: new Set<string>(),
      paidEmails: new Set([...paid.phones, ...phoneFollowers.filter((f) => paidGuardians.has(f.guardianId)).map((f) => f.email)]),
      keyPrefix: SMS_KEY_PREFIX,
    });
    return { messages, sms, schedule: s };
  }

  const galleryPath = (slug: string) => `/school/${encodeURIComponent(slug)}`;
  const galleryUrl = (slug: string) => `${publicUrl}${galleryPath(slug)}`;

  function compose(message: Composable, to: string): { content: EmailContent; headers: Record<string, string> } {
    const token = unsubscribeToken(jwtSecret, to);
    const common = {
      businessName,
      schoolName: message.school.name,
      studentName: message.studentName,
      galleryUrl: galleryUrl(message.school.slug),
      unsubscribeUrl: unsubscribePageUrl(publicUrl, token),
    };
    const content =
      message.kind === 'closing_reminder' && message.school.closingDate !== null
        ? closingReminderEmail({ ...common, closingDate: message.school.closingDate, days: message.days ?? 1 })
        : photosOnlineEmail({ ...common, closingDate: message.school.closingDate, className: message.className });
    return { content, headers: unsubscribeHeaders(publicUrl, token) };
  }

  /**
   * Enqueues one recipient's message at its place in the window (one per address per Botswana
   * day), in one transaction with the check of that address's other messages. False when it was
   * already there, or when the window would push a reminder past closing.
   */
  async function enqueueOne(target: SeasonSchool, message: PlannedMessage, recipient: PlannedRecipient, window: SendWindow, now: number): Promise<boolean> {
    const { content } = compose({ kind: message.kind, school: target, className: message.albumName, days: message.days, studentName: recipient.studentName }, recipient.email);
    return database.transaction((tx: Tx) =>
      outbox.enqueueNonTransactional(
        { kind: message.kind, to: recipient.email, ...content, dedupeKey: recipient.dedupeKey, schoolId: target.id, guardianId: recipient.guardianId },
        { window, earliest: now, latest: message.kind === 'closing_reminder' && target.closingDate !== null ? closesAt(target.closingDate) : null },
        tx,
      ),
    );
  }

  /** One SMS of the season with its links (docs/sms.md, "The season by SMS"). */
  function composeSms(message: Composable, links: { link: string; stopUrl: string }): SmsContent {
    const input = { schoolName: message.school.name, studentName: message.studentName, closingDate: message.school.closingDate, ...links };
    return message.kind === 'closing_reminder' && message.school.closingDate !== null
      ? closingReminderSms({ ...input, closingDate: message.school.closingDate })
      : photosOnlineSms(input);
  }

  /**
   * Enqueues one phone's SMS as enqueueOne does an e-mail: its two short links (the gallery, the
   * opt-out page) written in the same transaction, at its place in the window, one non-transactional
   * message a day per guardian across both channels.
   */
  async function enqueueSms(target: SeasonSchool, message: PlannedMessage, recipient: PlannedRecipient, window: SendWindow, now: number): Promise<boolean> {
    const phone = recipient.email;
    return writeSms(database, async (tx: Tx) => {
      const link = await shortLinks.create(galleryPath(target.slug), { expiresAt: now + GALLERY_LINK_TTL_MS }, tx);
      const stopUrl = await shortLinks.create(smsOptOutPath(jwtSecret, phone), {}, tx);
      const sms = composeSms({ kind: message.kind, school: target, className: message.albumName, days: message.days, studentName: recipient.studentName }, { link, stopUrl });
      return outbox.enqueueNonTransactional(
        { channel: 'sms', kind: message.kind, to: phone, subject: '', text: sms.text, html: '', dedupeKey: recipient.dedupeKey, schoolId: target.id, guardianId: recipient.guardianId },
        { window, earliest: now, latest: message.kind === 'closing_reminder' && target.closingDate !== null ? closesAt(target.closingDate) : null },
        tx,
      );
    });
  }

  /**
   * What one planned message costs by SMS (the staff's preview): its text as the first recipient
   * (or a sample family) would get it, with links as long as real ones, the most segments any
   * recipient's text takes, and segments × recipients × SMS_COST_THEBE.
   */
  function smsPreview(target: SeasonSchool, message: PlannedMessage, sms: PlannedMessage | undefined) {
    const sampleLink = () => `${publicUrl}/s/${randomBytes(9).toString('base64url')}`;
    const recipients = sms?.recipients ?? [];
    const texts = (recipients.length > 0 ? recipients.map((r) => r.studentName) : [SMS_PREVIEW_MSG.sampleChild]).map((studentName) =>
      composeSms({ kind: message.kind, school: target, className: message.albumName, days: message.days, studentName }, { link: sampleLink(), stopUrl: sampleLink() }),
    );
    const widest = texts.reduce((a, b) => (b.segments > a.segments || (b.segments === a.segments && b.units > a.units) ? b : a));
    const first = texts[0] ?? widest;
    return {
      text: first.text,
      encoding: widest.encoding,
      units: widest.units,
      segments: widest.segments,
      recipients: recipients.map((r) => ({ phone: r.email, studentName: r.studentName })),
      skipped: (sms?.skipped ?? []).map((skip) => ({ phone: skip.email, reason: skip.reason })),
      costThebe: widest.segments * recipients.length * smsCostThebe,
    };
  }

  /** Composers of the messages staff may test from here, by kind; the other kinds answer 400. */
  const testComposers: Record<TestableKind, (target: SeasonSchool, to: string) => Promise<{ content: EmailContent; headers: Record<string, string> }>> = {
    photos_online: async (target, to) => {
      const classes = await repo.classes(target.id);
      const klass = classes.find((k) => k.status === 'published') ?? classes[0];
      return compose({ kind: 'photos_online', school: target, className: klass?.name ?? null, days: null, studentName: null }, to);
    },
    closing_reminder: async (target, to) => {
      if (target.closingDate === null) throw badRequest(SEASON_MSG.noClosingDateReason, { kind: SEASON_MSG.noClosingDateReason });
      const s = await schedule(target.id);
      const days = s.record.reminderDays.length > 0 ? Math.min(...s.record.reminderDays) : DEFAULT_REMINDER_DAYS[DEFAULT_REMINDER_DAYS.length - 1];
      return compose({ kind: 'closing_reminder', school: target, className: null, days: days ?? 1, studentName: null }, to);
    },
    // The others show their wording with example content; their links lead to the school's gallery.
    guardian_confirm: async (target) => ({
      content: guardianConfirmEmail({ businessName, confirmUrl: `${publicUrl}/confirm-email`, children: { count: 1, schools: [target.name] }, schools: [], marketing: false }),
      headers: {},
    }),
    abandoned_cart: async (target, to) => {
      const token = unsubscribeToken(jwtSecret, to);
      return {
        content: abandonedCartEmail({
          businessName,
          schoolName: target.name,
          lines: [{ photoName: SEASON_MSG.testPhotoName, productName: SEASON_MSG.testProductName, quantity: 1 }],
          restoreUrl: galleryUrl(target.slug),
          linkDays: Math.round(CART_LINK_TTL_MS / DAY_MS),
          unsubscribeUrl: unsubscribePageUrl(publicUrl, token),
        }),
        headers: unsubscribeHeaders(publicUrl, token),
      };
    },
    unpaid_order: async (target, to) => {
      const token = unsubscribeToken(jwtSecret, to);
      return {
        content: unpaidOrderEmail({
          businessName,
          customerName: SEASON_MSG.testCustomerName,
          orderId: SEASON_MSG.testOrderId,
          schoolName: target.name,
          totalThebe: SEASON_MSG.testOrderThebe,
          lines: [{ photoName: SEASON_MSG.testPhotoName, productName: SEASON_MSG.testProductName, quantity: 1, totalThebe: SEASON_MSG.testOrderThebe }],
          payUrl: galleryUrl(target.slug),
          unsubscribeUrl: unsubscribePageUrl(publicUrl, token),
        }),
        headers: unsubscribeHeaders(publicUrl, token),
      };
    },
  };

  return {
    async getSchedule(schoolId: number): Promise<MessageSchedule> {
      await school(schoolId);
      return present(await schedule(schoolId));
    },

    async saveSchedule(schoolId: number, input: { photosOnline: boolean; reminderDays: number[]; sendFrom: string; sendUntil: string }): Promise<MessageSchedule> {
      await school(schoolId);
      await repo.saveSchedule(schoolId, input);
      return present(await schedule(schoolId));
    },

    /**
     * Enqueues every season message due at `now` in every school still selling (docs/outreach.md,
     * "The season timeline"); each once, by its dedupe key. Answers how many were enqueued.
     */
    async sendDue(now: number = Date.now()): Promise<number> {
      let enqueued = 0;
      for (const schoolId of await repo.activeSchoolIds(localDate(now - DAY_MS))) {
        const target = await repo.school(schoolId);
        if (!target) continue;
        const { messages, sms, schedule: s } = await plan(target, now);
        const due = messages.flatMap((m, i) => (m.state === 'due' ? [{ email: m, sms: sms[i] ?? { ...m, recipients: [] } }] : [])).filter((m) => m.email.recipients.length + m.sms.recipients.length > 0);
        if (due.length === 0) continue;
        const existing = await repo.existingKeys(due.flatMap((m) => [...m.sms.recipients, ...m.email.recipients].map((r) => r.dedupeKey)));
        for (const message of due) {
          // The SMS first: a guardian with a phone and an address gets the SMS in today's window and
          // the e-mail on a later day, by the one-a-day rule (docs/sms.md, "The season by SMS").
          for (const recipient of message.sms.recipients) {
            if (existing.has(recipient.dedupeKey)) continue;
            if (await enqueueSms(target, message.sms, recipient, windowOf(s.record), now)) enqueued++;
          }
          for (const recipient of message.email.recipients) {
            if (existing.has(recipient.dedupeKey)) continue;
            if (await enqueueOne(target, message.email, recipient, windowOf(s.record), now)) enqueued++;
          }
        }
      }
      if (enqueued > 0) outbox.kick();
      return enqueued;
    },

    /** Who gets what and when (docs/outreach.md, "The season timeline"). */
    async preview(schoolId: number, now: number = Date.now()): Promise<MessagesPreview> {
      const target = await school(schoolId);
      const { messages, sms, schedule: s } = await plan(target, now);
      const existing = await repo.existingKeys([...messages, ...sms].flatMap((m) => m.recipients.map((r) => r.dedupeKey)));
      const window = windowOf(s.record);
      return {
        timezone: SCHOOL_TIMEZONE,
        smsCostThebe,
        schedule: present(s),
        pictureDay: target.pictureDay,
        closingDate: target.closingDate,
        messages: messages.map((m, index) => {
          const rows = [...m.recipients, ...(sms[index]?.recipients ?? [])].flatMap((r) => {
            const row = existing.get(r.dedupeKey);
            return row && row.status !== 'cancelled' ? [row] : [];
          });
          let status: 'planned' | 'sent' | 'unplanned' = 'unplanned';
          let sendAt: number | null = null;
          let reason = m.reason;
          if (m.state === 'future') {
            status = 'planned';
            sendAt = nextInWindow(m.dueAt ?? now, window);
          } else if ((m.state === 'due' || m.state === 'past') && rows.length > 0) {
            const waiting = rows.filter((row) => row.status === 'queued' || row.status === 'sending');
            status = waiting.length > 0 ? 'planned' : 'sent';
            sendAt = waiting.length > 0 ? Math.max(...waiting.map((row) => row.notBefore)) : Math.min(...rows.map((row) => row.sentAt ?? row.notBefore));
            reason = null;
          } else if (m.state === 'due') {
            status = 'planned';
            sendAt = nextInWindow(now, window);
          }
          return {
            kind: m.kind,
            label: OUTREACH_MSG.kindLabels[m.kind],
            albumId: m.albumId,
            albumName: m.albumName,
            sendAt: sendAt === null ? null : new Date(sendAt).toISOString(),
            status,
            reason: status === 'unplanned' ? reason : null,
            recipients: m.recipients.map((r) => ({ email: r.email, source: r.source, studentName: r.studentName })),
            skipped: m.skipped,
            sms: smsPreview(target, m, sms[index]),
          };
        }),
      };
    },

    /**
     * Sends `kind` as a family would get it to `to` (the signed-in staff member), marked as a test.
     * It carries no school, so the statistics never count it.
     */
    async sendTest(schoolId: number, kind: TestableKind, to: string): Promise<{ sentTo: string; message: string }> {
      const target = await school(schoolId);
      const composer = testComposers[kind];
      const { content, headers } = await composer(target, to);
      await outbox.enqueue({ kind, to, ...content, subject: `${SEASON_MSG.testSubjectPrefix}${content.subject}`, headers, schoolId: null });
      outbox.kick();
      return { sentTo: to, message: SEASON_MSG.testSent(to) };
    },

    /** Messages of the school by kind and state, and the orders their recipients placed within ATTRIBUTION_DAYS (docs/outreach.md, "Statistics"). */
    async stats(schoolId: number): Promise<MessageStats> {
      await school(schoolId);
      const counts = await repo.counts(schoolId);
      const smsCounts = await repo.smsCounts(schoolId);
      const attributed = await repo.attributed(schoolId, ATTRIBUTION_MS);
      const kinds = OUTBOX_KINDS.filter((kind) => (NON_TRANSACTIONAL_KINDS as readonly string[]).includes(kind) || counts.some((c) => c.kind === kind));
      const sum = (kind: OutboxKind, statuses: readonly string[]) => counts.filter((c) => c.kind === kind && statuses.includes(c.status)).reduce((n, c) => n + c.count, 0);
      const ordersOf = (rows: typeof attributed) => {
        const seen = new Map<string, (typeof attributed)[number]>();
        for (const row of rows) seen.set(row.orderId, row);
        const orders = [...seen.values()];
        return { orders: orders.length, revenue: orders.filter((o) => o.paid).reduce((n, o) => n + o.totalThebe, 0) };
      };
      const byKind = kinds.map((kind) => ({
        kind,
        label: OUTREACH_MSG.kindLabels[kind],
        scheduled: sum(kind, ['queued', 'sending']),
        sent: sum(kind, ['sent']),
        failed: sum(kind, ['failed']),
        ...ordersOf(attributed.filter((row) => row.kind === kind)),
      }));
      const total = ordersOf(attributed);
      return {
        scheduled: byKind.reduce((n, k) => n + k.scheduled, 0),
        sent: byKind.reduce((n, k) => n + k.sent, 0),
        failed: byKind.reduce((n, k) => n + k.failed, 0),
        ordersWithin7Days: total.orders,
        revenueWithin7Days: total.revenue,
        byKind,
        sms: smsFigures(smsCounts),
      };
    },

    /**
     * In the transaction that marks an order paid: withdraws the queued non-transactional messages
     * to its customer's address about its school, those about the order itself, and the SMS to the
     * family's phones about the school
     * (docs/outreach.md, "Stopping once the family pays").
     */
    async withdrawForPaidOrder(orderId: string, tx: Tx): Promise<number> {
      const contact = await repo.orderContact(orderId, tx);
      if (!contact) return 0;
      const bySchool = await outbox.cancelQueued({ kinds: NON_TRANSACTIONAL_KINDS, recipient: contact.email, schoolId: contact.schoolId }, tx);
      const byOrder = await outbox.cancelQueued({ kinds: NON_TRANSACTIONAL_KINDS, orderId }, tx);
      // By SMS too (docs/sms.md, "The season by SMS"): the order's phone, and every guardian reached at its address or phone.
      let byPhone = 0;
      const phones = new Set(contact.phone ? [contact.phone] : []);
      for (const guardian of await repo.guardiansOf(contact, tx)) {
        byPhone += await outbox.cancelQueued({ kinds: NON_TRANSACTIONAL_KINDS, guardianId: guardian.id, schoolId: contact.schoolId }, tx);
        if (guardian.phone) phones.add(guardian.phone);
      }
      for (const phone of phones) byPhone += await outbox.cancelQueued({ kinds: NON_TRANSACTIONAL_KINDS, recipient: phone, schoolId: contact.schoolId }, tx);
      return bySchool + byOrder + byPhone;
    },
  };
}
export type SeasonService = ReturnType<typeof createSeasonService>;

/**
 * The SMS figures staff see beside the e-mail ones (docs/sms.md, "Delivery receipts"): failed
 * counts the SMS refused for good and those whose receipt said undelivered or expired.
 */
function smsFigures(counts: readonly { status: string; delivery: string | null; count: number }[]): MessageStats['sms'] {
  const sum = (match: (row: { status: string; delivery: string | null }) => boolean) => counts.filter(match).reduce((n, row) => n + row.count, 0);
  return {
    scheduled: sum((row) => row.status === 'queued' || row.status === 'sending'),
    sent: sum((row) => row.status === 'sent'),
    delivered: sum((row) => row.status === 'sent' && row.delivery === 'delivered'),
    failed: sum((row) => row.status === 'failed' || (row.status === 'sent' && (row.delivery === 'failed' || row.delivery === 'expired'))),
  };
}
