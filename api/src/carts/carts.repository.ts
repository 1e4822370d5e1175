import type { Connection } from '../db/knex';
import { runner, type Tx } from '../db/database';
import type { MirroredCartItem } from '../../contract/outreach';

/** Abandoned carts and unpaid orders (docs/outreach.md, "Abandoned carts and unpaid orders"). */

export interface GuardianRecord {
  id: number;
  email: string;
  confirmedAt: number | null;
  /** When the guardian's phone was confirmed by its code (docs/sms.md, "The season by SMS"). */
  phoneConfirmedAt: number | null;
  unsubscribedAt: number | null;
}

export interface CartRecord {
  guardianId: number;
  schoolId: number | null;
  items: MirroredCartItem[];
  updatedAt: number;
}

/** A cart due for its message, with its guardian's address. */
export interface DueCart extends CartRecord {
  email: string;
}

/** A followed school (studentId null) or child, with the credential a grant to it is bound to now. */
export interface FollowRecord {
  schoolId: number;
  studentId: number | null;
  schoolEpoch: number;
  studentCode: string | null;
}

export interface SchoolInfo {
  id: number;
  name: string;
  slug: string;
  closingDate: string | null;
}

export interface UnpaidOrderRecord {
  id: string;
  schoolId: number;
  albumId: number | null;
  customerId: number | null;
  customerName: string;
  customerEmail: string;
  studentName: string;
  totalThebe: number;
  createdAt: number;
}

export interface OrderLineRecord {
  orderId: string;
  photoId: number | null;
  photoName: string | null;
  photoOriginalNumber: string | null;
  photoOriginalName: string | null;
  productName: string;
  quantity: number;
  totalThebe: number;
  studentId: number | null;
}

/** A paid order of a customer, as the "paid since" rule needs it. */
export interface PaidOrderRecord {
  id: string;
  customerId: number | null;
  customerEmail: string;
  schoolId: number;
  albumId: number | null;
  studentName: string;
  createdAt: number;
  studentIds: number[];
}

/** A queued reminder, as the withdrawal of stale ones needs it. */
export interface QueuedReminder {
  kind: 'abandoned_cart' | 'unpaid_order';
  guardianId: number | null;
  orderId: string | null;
  dedupeKey: string | null;
}

interface CartRow {
  guardian_id: number;
  school_id: number | null;
  items: string;
  updated_at: number | string;
}

function parseItems(raw: string): MirroredCartItem[] {
  try {
    const value = JSON.parse(raw) as unknown;
    if (!Array.isArray(value)) return [];
    return value.flatMap((item): MirroredCartItem[] => {
      const { photoId, productType, quantity } = (item ?? {}) as Record<string, unknown>;
      if (!Number.isSafeInteger(photoId) || typeof productType !== 'string' || !Number.isSafeInteger(quantity)) return [];
      return [{ photoId: photoId as number, productType, quantity: quantity as number }];
    });
  } catch {
    return [];
  }
}

const toCart = (row: CartRow): CartRecord => ({
  guardianId: Number(row.guardian_id),
  schoolId: row.school_id === null ? null : Number(row.school_id),
  items: parseItems(row.items),
  updatedAt: Number(row.updated_at),
});

const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

const toOrder = (row: Record<string, unknown>): UnpaidOrderRecord => ({
  id: String(row.id),
  schoolId: Number(row.school_id),
  albumId: numOrNull(row.album_id),
  customerId: numOrNull(row.customer_id),
  customerName: String(row.customer_name),
  customerEmail: String(row.customer_email),
  studentName: String(row.student_name),
  totalThebe: Number(row.total_thebe),
  createdAt: Number(row.created_at),
});

const lower = (email: string) => email.trim().toLowerCase();

export function createCartRepository(knex: Connection) {
  return {
    async guardian(id: number, tx?: Tx | null): Promise<GuardianRecord | undefined> {
      const row = (await runner(knex, tx)('guardians').where({ id }).first('id', 'email', 'confirmed_at', 'phone_confirmed_at', 'unsubscribed_at')) as
        | { id: number; email: string; confirmed_at: number | string | null; phone_confirmed_at: number | string | null; unsubscribed_at: number | string | null }
        | undefined;
      return (
        row && {
          id: Number(row.id),
          email: row.email,
          confirmedAt: numOrNull(row.confirmed_at),
          phoneConfirmedAt: numOrNull(row.phone_confirmed_at),
          unsubscribedAt: numOrNull(row.unsubscribed_at),
        }
      );
    },

    async cart(guardianId: number, tx?: Tx | null): Promise<CartRecord | undefined> {
      const row = (await runner(knex, tx)('guardian_carts').where({ guardian_id: guardianId }).first()) as CartRow | undefined;
      return row && toCart(row);
    },

    /** Writes the cart (ids and quantities only) as of `at`. */
    async saveCart(guardianId: number, schoolId: number | null, items: MirroredCartItem[], at: number, tx?: Tx | null): Promise<void> {
      const stored = JSON.stringify(items.map((item) => ({ photoId: item.photoId, productType: item.productType, quantity: item.quantity })));
      await runner(knex, tx)('guardian_carts')
        .insert({ guardian_id: guardianId, school_id: schoolId, items: stored, updated_at: at })
        .onConflict('guardian_id')
        .merge(['school_id', 'items', 'updated_at']);
    },

    async clearCart(guardianId: number, tx?: Tx | null): Promise<void> {
      await runner(knex, tx)('guardian_carts').where({ guardian_id: guardianId }).delete();
    },

    /** The schools and children the guardian follows in a school (confirmed follows only), with today's epoch and code. */
    async follows(guardianId: number, schoolId: number): Promise<FollowRecord[]> {
      const rows = (await knex('guardian_follows as f')
        .join('schools as s', 's.id', 'f.school_id')
        .leftJoin('students as st', 'st.id', 'f.student_id')
        .where({ 'f.guardian_id': guardianId, 'f.school_id': schoolId })
        // Only what the address itself confirmed (docs/outreach.md, "Double opt-in").
        .whereNotNull('f.confirmed_at')
        .orderBy('f.id')
        .select('f.school_id', 'f.student_id', 's.grant_epoch', 'st.code')) as { school_id: number; student_id: number | null; grant_epoch: number; code: string | null }[];
      return rows.map((row) => ({ schoolId: Number(row.school_id), studentId: numOrNull(row.student_id), schoolEpoch: Number(row.grant_epoch), studentCode: row.code }));
    },

    /** Today's credentials of schools and children (a child erased since is missing). */
    async credentials(schoolIds: number[], studentIds: number[]): Promise<{ schools: Map<number, number>; students: Map<number, string> }> {
      const schools = schoolIds.length === 0 ? [] : ((await knex('schools').whereIn('id', schoolIds).select('id', 'grant_epoch')) as { id: number; grant_epoch: number }[]);
      const students = studentIds.length === 0 ? [] : ((await knex('students').whereIn('id', studentIds).select('id', 'code')) as { id: number; code: string }[]);
      return {
        schools: new Map(schools.map((row) => [Number(row.id), Number(row.grant_epoch)])),
        students: new Map(students.map((row) => [Number(row.id), row.code])),
      };
    },

    /** Whether the guardian still follows that school (studentId null) or child. */
    async stillFollows(guardianId: number, schoolId: number | null, studentId: number | null): Promise<boolean> {
      const q = knex('guardian_follows').where({ guardian_id: guardianId }).whereNotNull('confirmed_at');
      if (studentId === null) q.andWhere({ school_id: schoolId }).whereNull('student_id');
      else q.andWhere({ student_id: studentId });
      return Boolean(await q.first('id'));
    },

    async schools(ids: number[]): Promise<Map<number, SchoolInfo>> {
      if (ids.length === 0) return new Map();
      const rows = (await knex('schools').whereIn('id', [...new Set(ids)]).select('id', 'name', 'slug', 'closing_date')) as { id: number; name: string; slug: string; closing_date: string | null }[];
      return new Map(rows.map((row) => [Number(row.id), { id: Number(row.id), name: row.name, slug: row.slug, closingDate: row.closing_date }]));
    },

    async studentNames(ids: number[]): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const rows = (await knex('students').whereIn('id', [...new Set(ids)]).select('id', 'name')) as { id: number; name: string }[];
      return new Map(rows.map((row) => [Number(row.id), row.name]));
    },

    /** The school's own sending window, when it set one (docs/outreach.md, "The sending window"). */
    async sendWindow(schoolId: number, tx?: Tx | null): Promise<{ from: string; until: string } | undefined> {
      const row = (await runner(knex, tx)('school_message_schedules').where({ school_id: schoolId }).first('send_from', 'send_until')) as { send_from: string; send_until: string } | undefined;
      return row && { from: row.send_from, until: row.send_until };
    },

    /** Non-empty carts unchanged since `changedBefore` (and changed after `changedAfter`) of confirmed, subscribed guardians. */
    async dueCarts(changedBefore: number, changedAfter: number): Promise<DueCart[]> {
      const rows = (await knex('guardian_carts as c')
        .join('guardians as g', 'g.id', 'c.guardian_id')
        .whereNotNull('g.confirmed_at')
        .whereNull('g.unsubscribed_at')
        .whereNotNull('c.school_id')
        .andWhere('c.updated_at', '<=', changedBefore)
        .andWhere('c.updated_at', '>', changedAfter)
        .orderBy('c.updated_at')
        .select('c.guardian_id', 'c.school_id', 'c.items', 'c.updated_at', 'g.email')) as (CartRow & { email: string })[];
      return rows.map((row) => ({ ...toCart(row), email: row.email })).filter((cart) => cart.items.length > 0);
    },

    /** Whether an order was placed with this address in the school at or after `since`. */
    async orderedSince(email: string, schoolId: number, since: number): Promise<boolean> {
      return Boolean(
        await knex('orders').whereRaw('lower(customer_email) = ?', [lower(email)]).andWhere({ school_id: schoolId }).andWhere('created_at', '>=', since).first('id'),
      );
    },

    /**
     * Orders still waiting for payment (docs/statuses.md: `pending`, payment not completed) placed
     * between the two times, leaving out those whose latest payment the gateway has received and
     * will settle later (a bank transfer or e-wallet payment being confirmed: the family has paid).
     */
    async unpaidOrders(placedBefore: number, placedAfter: number): Promise<UnpaidOrderRecord[]> {
      const rows = (await knex('orders as o')
        .where({ 'o.order_status': 'pending' })
        .whereNot({ 'o.payment_status': 'completed' })
        .andWhere('o.created_at', '<=', placedBefore)
        .andWhere('o.created_at', '>', placedAfter)
        .whereNotExists(knex('payments as p').whereRaw('p.order_id = o.id').andWhere({ 'p.status': 'pending' }).select('p.id'))
        .orderBy('o.created_at')
        .select('o.id', 'o.school_id', 'o.album_id', 'o.customer_id', 'o.customer_name', 'o.customer_email', 'o.student_name', 'o.total_thebe', 'o.created_at')) as Record<string, unknown>[];
      return rows.map(toOrder);
    },

    async orderLines(orderIds: string[]): Promise<OrderLineRecord[]> {
      if (orderIds.length === 0) return [];
      const rows = (await knex('order_items').whereIn('order_id', orderIds).orderBy('id')) as Record<string, unknown>[];
      return rows.map((row) => ({
        orderId: String(row.order_id),
        photoId: numOrNull(row.photo_id),
        photoName: (row.photo_name as string | null) ?? null,
        photoOriginalNumber: (row.photo_original_number as string | null) ?? null,
        photoOriginalName: (row.photo_original_name as string | null) ?? null,
        productName: String(row.product_name),
        quantity: Number(row.quantity),
        totalThebe: Number(row.total_thebe),
        studentId: numOrNull(row.student_id),
      }));
    },

    /** Paid orders in the school by this customer (account or address), placed at or after `since`. */
    async paidOrders(customer: { customerId: number | null; email: string }, schoolId: number, since: number): Promise<PaidOrderRecord[]> {
      const rows = (await knex('orders')
        .where({ school_id: schoolId, payment_status: 'completed' })
        .andWhere('created_at', '>=', since)
        .andWhere((w) => {
          w.whereRaw('lower(customer_email) = ?', [lower(customer.email)]);
          if (customer.customerId !== null) w.orWhere({ customer_id: customer.customerId });
        })
        .select('id', 'customer_id', 'customer_email', 'school_id', 'album_id', 'student_name', 'created_at')) as Record<string, unknown>[];
      if (rows.length === 0) return [];
      const items = (await knex('order_items').whereIn('order_id', rows.map((row) => String(row.id))).whereNotNull('student_id').select('order_id', 'student_id')) as {
        order_id: string;
        student_id: number;
      }[];
      return rows.map((row) => ({
        id: String(row.id),
        customerId: numOrNull(row.customer_id),
        customerEmail: String(row.customer_email),
        schoolId: Number(row.school_id),
        albumId: numOrNull(row.album_id),
        studentName: String(row.student_name),
        createdAt: Number(row.created_at),
        studentIds: items.filter((item) => item.order_id === row.id).map((item) => Number(item.student_id)),
      }));
    },

    /** The addresses among these that unsubscribed (lower case). */
    async unsubscribed(emails: string[], tx?: Tx | null): Promise<Set<string>> {
      if (emails.length === 0) return new Set();
      const rows = (await runner(knex, tx)('guardians').whereIn('email', [...new Set(emails.map(lower))]).whereNotNull('unsubscribed_at').select('email')) as { email: string }[];
      return new Set(rows.map((row) => lower(row.email)));
    },

    async guardianIdByEmail(email: string, tx?: Tx | null): Promise<number | null> {
      const row = (await runner(knex, tx)('guardians').where({ email: lower(email) }).first('id')) as { id: number } | undefined;
      return row ? Number(row.id) : null;
    },

    /** The order's state now, for the check made right before enqueueing. */
    async orderState(id: string, tx?: Tx | null): Promise<{ orderStatus: string; paymentStatus: string } | undefined> {
      const row = (await runner(knex, tx)('orders').where({ id }).first('order_status', 'payment_status')) as { order_status: string; payment_status: string } | undefined;
      return row && { orderStatus: row.order_status, paymentStatus: row.payment_status };
    },

    /** One order as the reminder rules read it, with its statuses. */
    async order(id: string): Promise<(UnpaidOrderRecord & { orderStatus: string; paymentStatus: string }) | undefined> {
      const row = (await knex('orders').where({ id }).first()) as Record<string, unknown> | undefined;
      return (
        row && {
          ...toOrder(row),
          orderStatus: String(row.order_status),
          paymentStatus: String(row.payment_status),
        }
      );
    },

    /** Reminders written but not yet claimed by the sender. */
    async queuedReminders(): Promise<QueuedReminder[]> {
      const rows = (await knex('outbox_messages').where({ status: 'queued' }).whereIn('kind', ['abandoned_cart', 'unpaid_order']).select('kind', 'guardian_id', 'order_id', 'dedupe_key')) as {
        kind: QueuedReminder['kind'];
        guardian_id: number | null;
        order_id: string | null;
        dedupe_key: string | null;
      }[];
      return rows.map((row) => ({ kind: row.kind, guardianId: numOrNull(row.guardian_id), orderId: row.order_id, dedupeKey: row.dedupe_key }));
    },
  };
}
export type CartRepository = ReturnType<typeof createCartRepository>;
