/**
 * The season timeline of one school as a pure function of the clock (docs/outreach.md, "The season
 * timeline"): which "photos are online" and "ordering closes soon" messages exist, when each is
 * due, who gets it and who is left out, and whether it should go out now. The service loads the
 * facts, the planner decides; tests give it a fixed `now`.
 */
import { ATTRIBUTION_DAYS, type SeasonKind } from '../../contract/outreach';
import { SEASON_MSG } from '../../contract/messages';
import { localMidnight, type SendWindow } from '../outreach/send-window';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** A "photos are online" message found more than this long after its publish time is not sent late (no blast on deploy). */
export const PHOTOS_ONLINE_LATE_MS = 7 * DAY_MS;

export interface PlanSchedule {
  photosOnline: boolean;
  /** Days before the closing date, any order. */
  reminderDays: readonly number[];
  window: SendWindow;
}

export interface PlanClass {
  id: number;
  name: string;
  status: 'draft' | 'published';
  /** albums.published_at: when the publish step (or a schedule) made it live. */
  publishedAt: number | null;
  /** When its first photo was uploaded (card photos aside), or null with no photo. */
  firstPhotoAt: number | null;
}

export interface PlanStudent {
  id: number;
  albumId: number;
  name: string;
  /** The class list's guardian address ("photos are online" only). */
  guardianEmail: string | null;
  doNotPublish: boolean;
}

export interface PlanFollower {
  guardianId: number;
  email: string;
  confirmed: boolean;
  unsubscribed: boolean;
  /** The child followed; null for a guardian following the whole school. */
  studentId: number | null;
}

export interface PlanInput {
  now: number;
  school: { id: number; closingDate: string | null };
  schedule: PlanSchedule;
  /** The school's classes that are not archived. */
  classes: readonly PlanClass[];
  students: readonly PlanStudent[];
  followers: readonly PlanFollower[];
  /** Addresses (lower case) that unsubscribed: a roster address among them gets nothing. */
  unsubscribedEmails: ReadonlySet<string>;
  /** Children with a paid order (order_items.student_id). */
  paidStudentIds: ReadonlySet<number>;
  /** Addresses (lower case) with a paid order of this school. */
  paidEmails: ReadonlySet<string>;
  /**
   * Put before every dedupe key: '' for e-mail; 'sms:' when the planner is run over phones (each
   * follower's `email` then holds its E.164 phone, and no class list address is given), so an SMS
   * and its e-mail are two messages (docs/sms.md, "The season by SMS").
   */
  keyPrefix?: string;
}

export interface PlannedRecipient {
  email: string;
  source: 'subscribed' | 'roster';
  studentName: string | null;
  guardianId: number | null;
  /** The outbox row's dedupe key: the same message never reaches an address twice. */
  dedupeKey: string;
}

/**
 * - `due`: its time has come and it goes out now;
 * - `future`: its time has not come;
 * - `past`: its time came but it is not sent now (`reason`: too old, a later reminder replaced it, ordering closed);
 * - `unplanned`: it cannot be planned yet (`reason`: no closing date, class not published, …).
 */
export type PlanState = 'due' | 'future' | 'past' | 'unplanned';

export interface PlannedMessage {
  kind: SeasonKind;
  albumId: number | null;
  albumName: string | null;
  /** Reminders: how many days before the closing date. */
  days: number | null;
  dueAt: number | null;
  state: PlanState;
  reason: string | null;
  recipients: PlannedRecipient[];
  skipped: { email: string; reason: string }[];
}

/** When families can see the class: published, with a photo, at the later of the two. */
export function onlineAt(klass: PlanClass): number | null {
  if (klass.status !== 'published' || klass.firstPhotoAt === null) return null;
  return Math.max(klass.publishedAt ?? klass.firstPhotoAt, klass.firstPhotoAt);
}

const minutes = (clock: string): number => {
  const [h, m] = clock.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/** Ordering closes at the end of the closing date, Botswana time. */
export const closesAt = (closingDate: string): number => localMidnight(closingDate) + DAY_MS;

/** A reminder `days` before the closing date is due at the window's start of that Botswana day. */
export const reminderDueAt = (closingDate: string, days: number, window: SendWindow): number =>
  localMidnight(closingDate) - days * DAY_MS + minutes(window.from) * 60_000;

/** Collects recipients and skips by address: the first recipient wins; a recipient is never also listed as skipped. */
class Audience {
  private readonly chosen = new Map<string, PlannedRecipient>();
  private readonly left = new Map<string, string>();

  add(recipient: PlannedRecipient): void {
    if (!this.chosen.has(recipient.email)) this.chosen.set(recipient.email, recipient);
  }

  has(email: string): boolean {
    return this.chosen.has(email);
  }

  skip(email: string, reason: string): void {
    if (!this.left.has(email)) this.left.set(email, reason);
  }

  result(): Pick<PlannedMessage, 'recipients' | 'skipped'> {
    return {
      recipients: [...this.chosen.values()],
      skipped: [...this.left].filter(([email]) => !this.chosen.has(email)).map(([email, reason]) => ({ email, reason })),
    };
  }
}

const lower = (email: string) => email.trim().toLowerCase();

/** Why a follower gets nothing at all, or null. */
function followerBlocked(f: PlanFollower, unsubscribed: ReadonlySet<string>): string | null {
  if (f.unsubscribed || unsubscribed.has(lower(f.email))) return SEASON_MSG.skippedUnsubscribed;
  if (!f.confirmed) return SEASON_MSG.skippedNotConfirmed;
  return null;
}

export function planSeason(input: PlanInput): PlannedMessage[] {
  const { now, school, schedule } = input;
  const prefix = input.keyPrefix ?? '';
  const online = new Map<number, number>();
  for (const klass of input.classes) {
    const at = onlineAt(klass);
    if (at !== null) online.set(klass.id, at);
  }
  const firstOnline = [...online].sort((a, b) => a[1] - b[1] || a[0] - b[0])[0]?.[0] ?? null;
  const closed = school.closingDate !== null && now >= closesAt(school.closingDate);
  const studentsOf = (albumId: number) => input.students.filter((s) => s.albumId === albumId);
  const followersOf = (studentId: number | null) => input.followers.filter((f) => f.studentId === studentId);
  const messages: PlannedMessage[] = [];

  for (const klass of input.classes) {
    const at = online.get(klass.id) ?? null;
    const base = { kind: 'photos_online' as const, albumId: klass.id, albumName: klass.name, days: null, dueAt: at };
    if (!schedule.photosOnline) {
      messages.push({ ...base, state: 'unplanned', reason: SEASON_MSG.photosOnlineOff, recipients: [], skipped: [] });
      continue;
    }
    if (at === null) {
      const reason = klass.status !== 'published' ? SEASON_MSG.notPublished : SEASON_MSG.noPhotos;
      messages.push({ ...base, state: 'unplanned', reason, recipients: [], skipped: [] });
      continue;
    }
    const audience = new Audience();
    const key = (email: string) => `${prefix}photos_online:album:${klass.id}:${email}`;
    for (const student of studentsOf(klass.id)) {
      const followers = followersOf(student.id);
      const roster = student.guardianEmail ? lower(student.guardianEmail) : null;
      if (student.doNotPublish) {
        for (const f of followers) audience.skip(lower(f.email), SEASON_MSG.skippedDoNotPublish);
        if (roster) audience.skip(roster, SEASON_MSG.skippedDoNotPublish);
        continue;
      }
      for (const f of followers) {
        const email = lower(f.email);
        const blocked = followerBlocked(f, input.unsubscribedEmails);
        if (blocked) audience.skip(email, blocked);
        else audience.add({ email, source: 'subscribed', studentName: student.name, guardianId: f.guardianId, dedupeKey: key(email) });
      }
      if (roster) {
        if (input.unsubscribedEmails.has(roster)) audience.skip(roster, SEASON_MSG.skippedUnsubscribed);
        else audience.add({ email: roster, source: 'roster', studentName: student.name, guardianId: null, dedupeKey: key(roster) });
      }
    }
    // A guardian following the whole school hears once, when its first class goes online.
    if (klass.id === firstOnline) {
      for (const f of followersOf(null)) {
        const email = lower(f.email);
        if (audience.has(email)) continue;
        const blocked = followerBlocked(f, input.unsubscribedEmails);
        if (blocked) audience.skip(email, blocked);
        else audience.add({ email, source: 'subscribed', studentName: null, guardianId: f.guardianId, dedupeKey: `${prefix}photos_online:school:${school.id}:${email}` });
      }
    }
    const state: PlanState = at > now ? 'future' : closed ? 'past' : now - at > PHOTOS_ONLINE_LATE_MS ? 'past' : 'due';
    const reason = state === 'past' ? (closed ? SEASON_MSG.closed : SEASON_MSG.tooOld) : null;
    messages.push({ ...base, state, reason, ...audience.result() });
  }

  const days = [...new Set(schedule.reminderDays)].sort((a, b) => b - a);
  const closingDate = school.closingDate;
  // Of several reminders already due, only the latest due one goes (no blast on deploy).
  const latestDue = closingDate === null ? null : (days.filter((n) => reminderDueAt(closingDate, n, schedule.window) <= now).at(-1) ?? null);
  for (const n of days) {
    const base = { kind: 'closing_reminder' as const, albumId: null, albumName: null, days: n };
    if (closingDate === null) {
      messages.push({ ...base, dueAt: null, state: 'unplanned', reason: SEASON_MSG.noClosingDateReason, recipients: [], skipped: [] });
      continue;
    }
    const dueAt = reminderDueAt(closingDate, n, schedule.window);
    // Only classes that were online when the reminder fell due count: no reminder before "photos are online".
    const eligible = input.classes.filter((k) => (online.get(k.id) ?? Infinity) <= dueAt);
    if (eligible.length === 0) {
      // Nothing online yet (unplanned), or every class went online after this reminder fell due (past).
      if (online.size === 0) messages.push({ ...base, dueAt, state: 'unplanned', reason: SEASON_MSG.noClassOnline, recipients: [], skipped: [] });
      else messages.push({ ...base, dueAt, state: 'past', reason: SEASON_MSG.beforePublish, recipients: [], skipped: [] });
      continue;
    }
    const audience = new Audience();
    const key = (email: string) => `${prefix}closing_reminder:${school.id}:${closingDate}:${n}:${email}`;
    /** Per address: the unpaid children it follows, whether it follows the school, and why it is left out. */
    const byEmail = new Map<string, { guardianId: number; unpaid: string[]; paid: number; school: boolean }>();
    for (const klass of eligible) {
      for (const student of studentsOf(klass.id)) {
        for (const f of followersOf(student.id)) {
          const email = lower(f.email);
          const blocked = student.doNotPublish ? SEASON_MSG.skippedDoNotPublish : followerBlocked(f, input.unsubscribedEmails);
          if (blocked) {
            audience.skip(email, blocked);
            continue;
          }
          const entry = byEmail.get(email) ?? { guardianId: f.guardianId, unpaid: [], paid: 0, school: false };
          if (input.paidStudentIds.has(student.id)) entry.paid++;
          else entry.unpaid.push(student.name);
          byEmail.set(email, entry);
        }
      }
    }
    for (const f of followersOf(null)) {
      const email = lower(f.email);
      const blocked = followerBlocked(f, input.unsubscribedEmails);
      if (blocked) {
        audience.skip(email, blocked);
        continue;
      }
      const entry = byEmail.get(email) ?? { guardianId: f.guardianId, unpaid: [], paid: 0, school: false };
      entry.school = !input.paidEmails.has(email);
      if (!entry.school) entry.paid++;
      byEmail.set(email, entry);
    }
    for (const [email, entry] of byEmail) {
      if (entry.unpaid.length === 0 && !entry.school) audience.skip(email, SEASON_MSG.skippedPaid);
      else audience.add({ email, source: 'subscribed', studentName: entry.unpaid.length > 0 ? entry.unpaid.join(' and ') : null, guardianId: entry.guardianId, dedupeKey: key(email) });
    }
    let state: PlanState = 'future';
    let reason: string | null = null;
    if (dueAt <= now) {
      if (now >= closesAt(closingDate)) [state, reason] = ['past', SEASON_MSG.closed];
      else if (n !== latestDue) [state, reason] = ['past', SEASON_MSG.missed];
      else state = 'due';
    }
    messages.push({ ...base, dueAt, state, reason, ...audience.result() });
  }
  return messages;
}

/** How long after a message an order still counts towards it in the statistics. */
export const ATTRIBUTION_MS = ATTRIBUTION_DAYS * DAY_MS;
