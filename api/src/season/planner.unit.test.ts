import { describe, expect, it } from 'vitest';
import { SEASON_MSG } from '../../contract/messages';
import { DEFAULT_WINDOW, localMidnight, planSend } from '../outreach/send-window';
import { closesAt, onlineAt, planSeason, reminderDueAt, type PlanFollower, type PlanInput } from './planner';

const H = 3600_000;
const DAY = 24 * H;
/** 10:00 Botswana time (08:00 UTC) on Monday 1 December 2026. */
const at = (date: string, hh = 10, mm = 0) => localMidnight(date) + hh * H + mm * 60_000;
const PUBLISHED = at('2026-12-01', 9);

const follower = (guardianId: number, email: string, studentId: number | null, extra: Partial<PlanFollower> = {}): PlanFollower => ({
  guardianId,
  email,
  confirmed: true,
  unsubscribed: false,
  studentId,
  ...extra,
});

function input(now: number, changes: Partial<PlanInput> = {}): PlanInput {
  return {
    now,
    school: { id: 7, closingDate: '2026-12-20' },
    schedule: { photosOnline: true, reminderDays: [7, 3, 1], window: DEFAULT_WINDOW },
    classes: [
      { id: 1, name: 'Class 1A', status: 'published', publishedAt: PUBLISHED, firstPhotoAt: PUBLISHED - H },
      { id: 2, name: 'Class 2B', status: 'published', publishedAt: PUBLISHED + 2 * DAY, firstPhotoAt: PUBLISHED },
    ],
    students: [
      { id: 11, albumId: 1, name: 'Neo', guardianEmail: 'roster-neo@example.test', doNotPublish: false },
      { id: 12, albumId: 1, name: 'Kagiso', guardianEmail: null, doNotPublish: false },
      { id: 21, albumId: 2, name: 'Mpho', guardianEmail: 'roster-mpho@example.test', doNotPublish: false },
    ],
    followers: [follower(1, 'neo@example.test', 11), follower(2, 'kagiso@example.test', 12), follower(3, 'whole@example.test', null), follower(4, 'mpho@example.test', 21)],
    unsubscribedEmails: new Set(),
    paidStudentIds: new Set(),
    paidEmails: new Set(),
    ...changes,
  };
}

const photosOnline = (plan: ReturnType<typeof planSeason>, albumId: number) => plan.find((m) => m.kind === 'photos_online' && m.albumId === albumId)!;
const reminder = (plan: ReturnType<typeof planSeason>, days: number) => plan.find((m) => m.kind === 'closing_reminder' && m.days === days)!;
const emails = (m: { recipients: { email: string }[] }) => m.recipients.map((r) => r.email).sort();

describe('the season planner', () => {
  it('puts a class online at the later of its publish time and its first photo', () => {
    expect(onlineAt({ id: 1, name: 'A', status: 'published', publishedAt: 1000, firstPhotoAt: 500 })).toBe(1000);
    // Created published (published_at at creation), photos uploaded later: online at the first upload.
    expect(onlineAt({ id: 1, name: 'A', status: 'published', publishedAt: 1000, firstPhotoAt: 4000 })).toBe(4000);
    expect(onlineAt({ id: 1, name: 'A', status: 'published', publishedAt: null, firstPhotoAt: 4000 })).toBe(4000);
    expect(onlineAt({ id: 1, name: 'A', status: 'draft', publishedAt: null, firstPhotoAt: 4000 })).toBeNull();
    expect(onlineAt({ id: 1, name: 'A', status: 'published', publishedAt: 1000, firstPhotoAt: null })).toBeNull();
  });

  it('dates the reminders 7, 3 and 1 days before the closing date at the window start, Botswana time, and closes at the end of that day', () => {
    expect(new Date(reminderDueAt('2026-12-20', 7, DEFAULT_WINDOW)).toISOString()).toBe('2026-12-13T06:00:00.000Z');
    expect(new Date(reminderDueAt('2026-12-20', 3, DEFAULT_WINDOW)).toISOString()).toBe('2026-12-17T06:00:00.000Z');
    expect(new Date(reminderDueAt('2026-12-20', 1, { from: '09:30', until: '17:00' })).toISOString()).toBe('2026-12-19T07:30:00.000Z');
    expect(new Date(closesAt('2026-12-20')).toISOString()).toBe('2026-12-20T22:00:00.000Z');
    const plan = planSeason(input(at('2026-12-02')));
    expect(reminder(plan, 7)).toMatchObject({ state: 'future', dueAt: reminderDueAt('2026-12-20', 7, DEFAULT_WINDOW) });
    expect(plan.filter((m) => m.kind === 'closing_reminder').map((m) => m.days)).toEqual([7, 3, 1]);
  });

  it('keeps messages inside the window and to one per address per Botswana day', () => {
    // 20:30 Botswana time is after the window: the next morning at 08:00.
    expect(new Date(planSend(at('2026-12-01', 20, 30), new Set(), DEFAULT_WINDOW)).toISOString()).toBe('2026-12-02T06:00:00.000Z');
    // 06:00 is before it: 08:00 the same day.
    expect(new Date(planSend(at('2026-12-01', 6), new Set(), DEFAULT_WINDOW)).toISOString()).toBe('2026-12-01T06:00:00.000Z');
    // The address already has a message that day: the next day at the window start.
    expect(new Date(planSend(at('2026-12-01', 11), new Set([localMidnight('2026-12-01')]), DEFAULT_WINDOW)).toISOString()).toBe('2026-12-02T06:00:00.000Z');
  });

  it('sends "photos are online" at publish to followers and the class list, and a school follower once, at the first class', () => {
    const plan = planSeason(input(PUBLISHED + 5 * 60_000));
    const first = photosOnline(plan, 1);
    expect(first.state).toBe('due');
    expect(emails(first)).toEqual(['kagiso@example.test', 'neo@example.test', 'roster-neo@example.test', 'whole@example.test']);
    expect(first.recipients.find((r) => r.email === 'roster-neo@example.test')).toMatchObject({ source: 'roster', studentName: 'Neo', guardianId: null });
    expect(first.recipients.find((r) => r.email === 'whole@example.test')?.dedupeKey).toBe('photos_online:school:7:whole@example.test');
    expect(first.recipients.find((r) => r.email === 'neo@example.test')?.dedupeKey).toBe('photos_online:album:1:neo@example.test');
    // Class 2B goes online two days later: its own families, and not the school follower again.
    const second = photosOnline(planSeason(input(PUBLISHED + 2 * DAY + 60_000)), 2);
    expect(second.state).toBe('due');
    expect(emails(second)).toEqual(['mpho@example.test', 'roster-mpho@example.test']);
    expect(photosOnline(planSeason(input(PUBLISHED - H)), 2).state).toBe('future');
  });

  it('does not send "photos are online" late (more than 7 days after publish), nor for a draft or a class without photos', () => {
    expect(photosOnline(planSeason(input(PUBLISHED + 7 * DAY - 60_000)), 1).state).toBe('due');
    expect(photosOnline(planSeason(input(PUBLISHED + 7 * DAY + 60_000)), 1)).toMatchObject({ state: 'past', reason: SEASON_MSG.tooOld });
    const plan = planSeason(
      input(PUBLISHED, {
        classes: [
          { id: 1, name: 'Class 1A', status: 'draft', publishedAt: null, firstPhotoAt: PUBLISHED },
          { id: 2, name: 'Class 2B', status: 'published', publishedAt: PUBLISHED, firstPhotoAt: null },
        ],
      }),
    );
    expect(photosOnline(plan, 1)).toMatchObject({ state: 'unplanned', reason: SEASON_MSG.notPublished });
    expect(photosOnline(plan, 2)).toMatchObject({ state: 'unplanned', reason: SEASON_MSG.noPhotos });
    expect(reminder(plan, 3)).toMatchObject({ state: 'unplanned', reason: SEASON_MSG.noClassOnline });
  });

  it('sends reminders to subscribers only, never to the class list', () => {
    const plan = planSeason(input(reminderDueAt('2026-12-20', 7, DEFAULT_WINDOW) + 60_000));
    const seven = reminder(plan, 7);
    expect(seven.state).toBe('due');
    expect(emails(seven)).toEqual(['kagiso@example.test', 'mpho@example.test', 'neo@example.test', 'whole@example.test']);
    expect(seven.recipients.every((r) => r.source === 'subscribed')).toBe(true);
    expect(seven.recipients[0]?.dedupeKey).toMatch(/^closing_reminder:7:2026-12-20:7:/);
  });

  it('sends no reminder to a guardian whose child has a paid order, nor to a school follower who paid', () => {
    const now = reminderDueAt('2026-12-20', 3, DEFAULT_WINDOW) + 60_000;
    const plan = planSeason(input(now, { paidStudentIds: new Set([11]), paidEmails: new Set(['whole@example.test']) }));
    const three = reminder(plan, 3);
    expect(emails(three)).toEqual(['kagiso@example.test', 'mpho@example.test']);
    expect(three.skipped).toEqual(
      expect.arrayContaining([
        { email: 'neo@example.test', reason: SEASON_MSG.skippedPaid },
        { email: 'whole@example.test', reason: SEASON_MSG.skippedPaid },
      ]),
    );
    // A guardian of two children, one of them paid, still hears about the other.
    const both = planSeason(input(now, { paidStudentIds: new Set([11]), followers: [follower(1, 'two@example.test', 11), follower(1, 'two@example.test', 21)] }));
    expect(reminder(both, 3).recipients).toEqual([expect.objectContaining({ email: 'two@example.test', studentName: 'Mpho' })]);
  });

  it('sends only the latest due reminder, none after closing, and none that fell due before any class was online', () => {
    const plan = planSeason(input(reminderDueAt('2026-12-20', 1, DEFAULT_WINDOW) + H));
    expect(reminder(plan, 1).state).toBe('due');
    expect(reminder(plan, 3)).toMatchObject({ state: 'past', reason: SEASON_MSG.missed });
    expect(reminder(plan, 7)).toMatchObject({ state: 'past', reason: SEASON_MSG.missed });
    const closed = planSeason(input(closesAt('2026-12-20') + 60_000));
    expect(closed.filter((m) => m.state === 'due')).toEqual([]);
    expect(reminder(closed, 1)).toMatchObject({ state: 'past', reason: SEASON_MSG.closed });
    // Closing on 5 December: the 7-day reminder (28 November) fell due before the classes went online.
    const early = planSeason(input(PUBLISHED + H, { school: { id: 7, closingDate: '2026-12-05' } }));
    expect(reminder(early, 7)).toMatchObject({ state: 'past', reason: SEASON_MSG.beforePublish, recipients: [] });
    expect(reminder(early, 3).state).toBe('future');
  });

  it('leaves out the unsubscribed, the unconfirmed and do-not-publish children, and plans no reminder without a closing date', () => {
    const plan = planSeason(
      input(PUBLISHED + H, {
        school: { id: 7, closingDate: null },
        followers: [follower(1, 'neo@example.test', 11, { confirmed: false }), follower(2, 'kagiso@example.test', 12, { unsubscribed: true })],
        unsubscribedEmails: new Set(['roster-neo@example.test']),
        students: [
          { id: 11, albumId: 1, name: 'Neo', guardianEmail: 'roster-neo@example.test', doNotPublish: false },
          { id: 12, albumId: 1, name: 'Kagiso', guardianEmail: null, doNotPublish: false },
          { id: 13, albumId: 1, name: 'Hidden', guardianEmail: 'hidden@example.test', doNotPublish: true },
        ],
      }),
    );
    const first = photosOnline(plan, 1);
    expect(first.recipients).toEqual([]);
    expect(first.skipped).toEqual([
      { email: 'neo@example.test', reason: SEASON_MSG.skippedNotConfirmed },
      { email: 'roster-neo@example.test', reason: SEASON_MSG.skippedUnsubscribed },
      { email: 'kagiso@example.test', reason: SEASON_MSG.skippedUnsubscribed },
      { email: 'hidden@example.test', reason: SEASON_MSG.skippedDoNotPublish },
    ]);
    expect(reminder(plan, 7)).toMatchObject({ state: 'unplanned', reason: SEASON_MSG.noClosingDateReason });
  });

  it('follows the schedule: "photos are online" off, other reminder days', () => {
    const plan = planSeason(input(PUBLISHED + H, { schedule: { photosOnline: false, reminderDays: [2, 10], window: { from: '07:00', until: '12:00' } } }));
    expect(photosOnline(plan, 1)).toMatchObject({ state: 'unplanned', reason: SEASON_MSG.photosOnlineOff });
    expect(plan.filter((m) => m.kind === 'closing_reminder').map((m) => [m.days, new Date(m.dueAt!).toISOString()])).toEqual([
      [10, '2026-12-10T05:00:00.000Z'],
      [2, '2026-12-18T05:00:00.000Z'],
    ]);
  });
});
