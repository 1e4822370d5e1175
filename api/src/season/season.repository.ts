import type { Connection } from '../db/knex';
import { runner, type Tx } from '../db/database';
import { isUniqueViolation } from '../db/errors';
import type { PlanClass, PlanFollower, PlanStudent } from './planner';

/** A school's own timeline (school_message_schedules); none means the default. */
export interface ScheduleRecord {
  photosOnline: boolean;
  reminderDays: number[];
  sendFrom: string;
  sendUntil: string;
}

export interface SeasonSchool {
  id: number;
  name: string;
  slug: string;
  closingDate: string | null;
  pictureDay: string | null;
}

/** An outbox row of the season, as the preview and the job need it. */
export interface SentKey {
  dedupeKey: string;
  status: string;
  notBefore: number;
  sentAt: number | null;
}

/** One sent message and an order its recipient placed in the school after it (statistics). */
export interface AttributedOrder {
  kind: string;
  orderId: string;
  totalThebe: number;
  paid: boolean;
}

interface FollowRow {
  id: number;
  email: string | null;
  phone: string | null;
  confirmed_at: number | string | null;
  phone_confirmed_at: number | string | null;
  unsubscribed_at: number | string | null;
  student_id: number | null;
  follow_confirmed_at: number | string | null;
}

/** Every follow of the school with its guardian's contacts and consent state. */
async function followRows(knex: Connection, schoolId: number): Promise<FollowRow[]> {
  return (await knex('guardian_follows as f')
    .join('guardians as g', 'g.id', 'f.guardian_id')
    .where('f.school_id', schoolId)
    .orderBy('f.id')
    .select('g.id', 'g.email', 'g.phone', 'g.confirmed_at', 'g.phone_confirmed_at', 'g.unsubscribed_at', 'f.student_id', { follow_confirmed_at: 'f.confirmed_at' })) as FollowRow[];
}

const CHUNK = 500;
const chunks = <T>(items: readonly T[]): T[][] => Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) => items.slice(i * CHUNK, (i + 1) * CHUNK));

/** A paid order: its payment completed and it was not cancelled (docs/statuses.md). */
const PAID = { payment_status: 'completed' } as const;

export function createSeasonRepository(knex: Connection) {
  return {
    async school(id: number, tx?: Tx | null): Promise<SeasonSchool | null> {
      const row = (await runner(knex, tx)('schools').where({ id }).first('id', 'name', 'slug', 'closing_date', 'picture_day')) as
        | { id: number; name: string; slug: string; closing_date: string | null; picture_day: string | null }
        | undefined;
      return row ? { id: Number(row.id), name: row.name, slug: row.slug, closingDate: row.closing_date, pictureDay: row.picture_day } : null;
    },

    /** Schools whose season may still send: no closing date, or one not long past. */
    async activeSchoolIds(sinceDate: string): Promise<number[]> {
      const rows = (await knex('schools')
        .where((w) => w.whereNull('closing_date').orWhere('closing_date', '>=', sinceDate))
        .orderBy('id')
        .select('id')) as { id: number }[];
      return rows.map((row) => Number(row.id));
    },

    async schedule(schoolId: number): Promise<ScheduleRecord | null> {
      const row = (await knex('school_message_schedules').where({ school_id: schoolId }).first()) as
        | { photos_online: number | boolean; reminder_days: string; send_from: string; send_until: string }
        | undefined;
      if (!row) return null;
      return {
        photosOnline: Number(row.photos_online) === 1,
        reminderDays: row.reminder_days
          .split(',')
          .filter((d) => d !== '')
          .map(Number),
        sendFrom: row.send_from,
        sendUntil: row.send_until,
      };
    },

    /** Writes the school's schedule (one row per school). */
    async saveSchedule(schoolId: number, schedule: ScheduleRecord): Promise<void> {
      const row = {
        photos_online: schedule.photosOnline ? 1 : 0,
        reminder_days: schedule.reminderDays.join(','),
        send_from: schedule.sendFrom,
        send_until: schedule.sendUntil,
        updated_at: Date.now(),
      };
      const updated = await knex('school_message_schedules').where({ school_id: schoolId }).update(row);
      if (Number(updated) > 0) return;
      try {
        await knex('school_message_schedules').insert({ school_id: schoolId, ...row });
      } catch (err) {
        // Two saves of a new schedule at once: the other inserted the row first, so this one updates it.
        if (!isUniqueViolation(err)) throw err;
        await knex('school_message_schedules').where({ school_id: schoolId }).update(row);
      }
    },

    /** The school's classes that are not archived, with when their first photo (not a card) arrived. */
    async classes(schoolId: number): Promise<PlanClass[]> {
      const first = knex('photos').where('photos.album_id', knex.ref('a.id')).andWhere('photos.kind', 'photo').min('photos.created_at');
      const rows = (await knex('albums as a')
        .where('a.school_id', schoolId)
        .whereNull('a.archived_at')
        .orderBy('a.id')
        .select('a.id', 'a.name', 'a.status', 'a.published_at', first.as('first_photo_at'))) as {
        id: number;
        name: string;
        status: string;
        published_at: number | string | null;
        first_photo_at: number | string | null;
      }[];
      return rows.map((row) => ({
        id: Number(row.id),
        name: row.name,
        status: row.status === 'published' ? 'published' : 'draft',
        publishedAt: row.published_at === null ? null : Number(row.published_at),
        firstPhotoAt: row.first_photo_at === null ? null : Number(row.first_photo_at),
      }));
    },

    async students(albumIds: readonly number[]): Promise<PlanStudent[]> {
      const out: PlanStudent[] = [];
      for (const part of chunks(albumIds)) {
        const rows = (await knex('students').whereIn('album_id', part).orderBy('id').select('id', 'album_id', 'name', 'guardian_email', 'do_not_publish')) as {
          id: number;
          album_id: number;
          name: string;
          guardian_email: string | null;
          do_not_publish: number | boolean;
        }[];
        for (const row of rows) {
          out.push({ id: Number(row.id), albumId: Number(row.album_id), name: row.name, guardianEmail: row.guardian_email?.trim() || null, doNotPublish: Boolean(Number(row.do_not_publish)) });
        }
      }
      return out;
    },

    /**
     * The guardians following the school or one of its children, with their consent state: a
     * follow counts as confirmed only when the address confirmed it (docs/outreach.md, "Double opt-in").
     * A guardian reached by phone alone has no address and is none of these (see `phoneFollowers`).
     */
    async followers(schoolId: number): Promise<PlanFollower[]> {
      return (await followRows(knex, schoolId)).flatMap((row) =>
        row.email === null
          ? []
          : [
              {
                guardianId: Number(row.id),
                email: row.email,
                confirmed: row.confirmed_at !== null && row.follow_confirmed_at !== null,
                unsubscribed: row.unsubscribed_at !== null,
                studentId: row.student_id === null ? null : Number(row.student_id),
              },
            ],
      );
    },

    /**
     * The same follows seen by phone (docs/sms.md, "The season by SMS"): each guardian with a phone,
     * the phone standing where the address stands, confirmed only when the phone was confirmed by
     * its code and the follow was confirmed; a guardian's unsubscribe stops both channels.
     */
    async phoneFollowers(schoolId: number): Promise<PlanFollower[]> {
      return (await followRows(knex, schoolId)).flatMap((row) =>
        row.phone === null
          ? []
          : [
              {
                guardianId: Number(row.id),
                email: row.phone,
                confirmed: row.phone_confirmed_at !== null && row.follow_confirmed_at !== null,
                unsubscribed: row.unsubscribed_at !== null,
                studentId: row.student_id === null ? null : Number(row.student_id),
              },
            ],
      );
    },

    /** Of these addresses (lower case), those that unsubscribed. */
    async unsubscribed(emails: readonly string[]): Promise<Set<string>> {
      const out = new Set<string>();
      for (const part of chunks([...new Set(emails)])) {
        const rows = (await knex('guardians').whereIn('email', part).whereNotNull('unsubscribed_at').select('email')) as { email: string }[];
        for (const row of rows) out.add(row.email.toLowerCase());
      }
      return out;
    },

    /** Children of the school with a paid order line, and the addresses (lower case) and phones with a paid order of the school. */
    async paid(schoolId: number): Promise<{ studentIds: Set<number>; emails: Set<string>; phones: Set<string> }> {
      const students = (await knex('order_items as i')
        .join('orders as o', 'o.id', 'i.order_id')
        .where('o.school_id', schoolId)
        .where('o.payment_status', PAID.payment_status)
        .whereNot('o.order_status', 'cancelled')
        .whereNotNull('i.student_id')
        .distinct('i.student_id')) as { student_id: number }[];
      // A package paid before picture day is the child's too, before it has photos: its family gets
      // the "choose your photos" message instead of "photos are online" (docs/prepaid.md, "Choosing the photos").
      const prepaid = (await knex('order_packages as op')
        .join('orders as o', 'o.id', 'op.order_id')
        .where('o.school_id', schoolId)
        .where('o.payment_status', PAID.payment_status)
        .whereNot('o.order_status', 'cancelled')
        .where('op.prepaid', true)
        .whereNotNull('op.student_id')
        .distinct('op.student_id')) as { student_id: number }[];
      const contacts = (await knex('orders').where({ school_id: schoolId, ...PAID }).whereNot('order_status', 'cancelled').distinct('customer_email', 'customer_phone')) as {
        customer_email: string;
        customer_phone: string | null;
      }[];
      return {
        studentIds: new Set([...students, ...prepaid].map((row) => Number(row.student_id))),
        emails: new Set(contacts.map((row) => row.customer_email.trim().toLowerCase())),
        phones: new Set(contacts.flatMap((row) => (row.customer_phone ? [row.customer_phone.trim()] : []))),
      };
    },

    /** The outbox rows that already hold these dedupe keys (whatever their state). */
    async existingKeys(keys: readonly string[], tx?: Tx | null): Promise<Map<string, SentKey>> {
      const out = new Map<string, SentKey>();
      for (const part of chunks([...new Set(keys)])) {
        const rows = (await runner(knex, tx)('outbox_messages').whereIn('dedupe_key', part).select('dedupe_key', 'status', 'not_before', 'sent_at')) as {
          dedupe_key: string;
          status: string;
          not_before: number | string;
          sent_at: number | string | null;
        }[];
        for (const row of rows) out.set(row.dedupe_key, { dedupeKey: row.dedupe_key, status: row.status, notBefore: Number(row.not_before), sentAt: row.sent_at === null ? null : Number(row.sent_at) });
      }
      return out;
    },

    /** Whose order it is and of which school, read in the paying transaction. */
    async orderContact(orderId: string, tx: Tx): Promise<{ email: string; phone: string | null; schoolId: number } | null> {
      const row = (await runner(knex, tx)('orders').where({ id: orderId }).first('customer_email', 'customer_phone', 'school_id')) as
        | { customer_email: string; customer_phone: string | null; school_id: number }
        | undefined;
      return row ? { email: row.customer_email.trim().toLowerCase(), phone: row.customer_phone?.trim() || null, schoolId: Number(row.school_id) } : null;
    },

    /**
     * The guardians reached at this address or phone, with their phone: a family that paid hears
     * nothing more on either channel (docs/sms.md, "The season by SMS").
     */
    async guardiansOf(contact: { email: string; phone: string | null }, tx: Tx): Promise<{ id: number; phone: string | null }[]> {
      const rows = (await runner(knex, tx)('guardians')
        .where((w) => {
          w.where({ email: contact.email });
          if (contact.phone) w.orWhere({ phone: contact.phone });
        })
        .select('id', 'phone')) as { id: number; phone: string | null }[];
      return rows.map((row) => ({ id: Number(row.id), phone: row.phone }));
    },

    /** The school's e-mails counted by kind and state (statistics). */
    async counts(schoolId: number): Promise<{ kind: string; status: string; count: number }[]> {
      const rows = (await knex('outbox_messages').where({ school_id: schoolId, channel: 'email' }).groupBy('kind', 'status').select('kind', 'status').count({ count: '*' })) as {
        kind: string;
        status: string;
        count: number | string;
      }[];
      return rows.map((row) => ({ kind: row.kind, status: row.status, count: Number(row.count) }));
    },

    /** The school's SMS counted by state and delivery receipt (statistics, docs/sms.md, "Delivery receipts"). */
    async smsCounts(schoolId: number): Promise<{ status: string; delivery: string | null; count: number }[]> {
      const rows = (await knex('outbox_messages')
        .where({ school_id: schoolId, channel: 'sms' })
        .groupBy('status', 'delivery_status')
        .select('status', 'delivery_status')
        .count({ count: '*' })) as { status: string; delivery_status: string | null; count: number | string }[];
      return rows.map((row) => ({ status: row.status, delivery: row.delivery_status, count: Number(row.count) }));
    },

    /**
     * Every order of the school placed by a message's recipient within `windowMs` after that
     * message was sent, one row per message and order (statistics).
     */
    async attributed(schoolId: number, windowMs: number): Promise<AttributedOrder[]> {
      const rows = (await knex('outbox_messages as m')
        .join('orders as o', (j) => {
          j.on('o.school_id', '=', 'm.school_id')
            .andOn(knex.raw('lower(o.customer_email) = lower(m.recipient)'))
            .andOn('o.created_at', '>=', 'm.sent_at')
            .andOn('o.created_at', '<=', knex.raw('m.sent_at + ?', [windowMs]));
        })
        .where('m.school_id', schoolId)
        .where('m.status', 'sent')
        .select('m.kind', 'o.id as order_id', 'o.total_thebe', 'o.payment_status', 'o.order_status')) as {
        kind: string;
        order_id: string;
        total_thebe: number | string;
        payment_status: string;
        order_status: string;
      }[];
      return rows.map((row) => ({
        kind: row.kind,
        orderId: row.order_id,
        totalThebe: Number(row.total_thebe),
        paid: row.payment_status === 'completed' && row.order_status !== 'cancelled',
      }));
    },
  };
}
export type SeasonRepository = ReturnType<typeof createSeasonRepository>;
