import type { Knex } from 'knex';
import type { CouponKind, CouponOncePer } from '../../contract/coupons';
import { runner, inTx, type Tx } from '../db/database';
import { insertedId, now } from '../db/knex';

/** A coupon as stored (docs/packages-and-coupons.md, "Coupons"); money in thebe. */
export interface CouponRecord {
  id: number;
  code: string;
  schoolId: number | null;
  schoolName: string | null;
  kind: CouponKind;
  /** Whole percent for a percent coupon, thebe for an amount coupon. */
  value: number;
  minOrderThebe: number | null;
  /** Botswana days "YYYY-MM-DD", inclusive. */
  startsOn: string | null;
  endsOn: string | null;
  maxUses: number | null;
  oncePer: CouponOncePer;
  excludesPackages: boolean;
  usesHeld: number;
  usesPaid: number;
  /** Epoch ms. */
  createdAt: number;
}

/** What staff write: every field of a coupon but its uses. */
export type CouponWrite = Omit<CouponRecord, 'id' | 'schoolName' | 'usesHeld' | 'usesPaid' | 'createdAt'>;

interface CouponRow {
  id: number;
  code: string;
  school_id: number | null;
  school_name: string | null;
  kind: string;
  value: number;
  min_order_thebe: number | null;
  starts_on: string | null;
  ends_on: string | null;
  max_uses: number | null;
  once_per: string;
  excludes_packages: number | boolean;
  uses_held: number;
  uses_paid: number;
  created_at: number | string;
}

const numberOrNull = (value: number | string | null): number | null => (value === null ? null : Number(value));

function toRecord(row: CouponRow): CouponRecord {
  return {
    id: Number(row.id),
    code: row.code,
    schoolId: numberOrNull(row.school_id),
    schoolName: row.school_name ?? null,
    kind: row.kind as CouponKind,
    value: Number(row.value),
    minOrderThebe: numberOrNull(row.min_order_thebe),
    startsOn: row.starts_on,
    endsOn: row.ends_on,
    maxUses: numberOrNull(row.max_uses),
    oncePer: row.once_per as CouponOncePer,
    excludesPackages: Number(row.excludes_packages) === 1,
    usesHeld: Number(row.uses_held),
    usesPaid: Number(row.uses_paid),
    createdAt: Number(row.created_at),
  };
}

function columns(coupon: CouponWrite) {
  return {
    code: coupon.code,
    school_id: coupon.schoolId,
    kind: coupon.kind,
    value: coupon.value,
    min_order_thebe: coupon.minOrderThebe,
    starts_on: coupon.startsOn,
    ends_on: coupon.endsOn,
    max_uses: coupon.maxUses,
    once_per: coupon.oncePer,
    excludes_packages: coupon.excludesPackages ? 1 : 0,
  };
}

/**
 * The unpaid orders whose coupon use has lapsed at `cutoff` (epoch ms: now less COUPON_HOLD_MINUTES),
 * as a subquery of order ids (docs/packages-and-coupons.md, "Holds that lapse"): unpaid, with no
 * payment received (a bank transfer waiting to settle) and none opened after the cutoff, and either
 * placed before the cutoff or with a payment that failed, was cancelled or expired.
 */
function lapsedOrders(db: Knex, cutoff: number, orderId?: string) {
  const query = db('orders as o')
    .whereNot('o.payment_status', 'completed')
    .whereNotExists(
      db('payments as p')
        .whereRaw('p.order_id = o.id')
        .where((q) => q.where('p.status', 'pending').orWhere((open) => open.where('p.status', 'initiated').where('p.created_at', '>', cutoff)))
        .select(db.raw('1')),
    )
    .where((q) => q.where('o.created_at', '<=', cutoff).orWhereExists(db('payments as f').whereRaw('f.order_id = o.id').where('f.status', 'failed').select(db.raw('1'))))
    .select('o.id');
  if (orderId !== undefined) query.where('o.id', orderId);
  return query;
}

export function createCouponRepository(knex: Knex) {
  const select = (db: Knex) =>
    db<CouponRow>('coupons as c').leftJoin('schools as s', 's.id', 'c.school_id').select('c.*', 's.name as school_name');

  return {
    async list(filter: { schoolId?: number } = {}): Promise<CouponRecord[]> {
      const query = select(knex).orderBy([{ column: 'c.code' }]);
      // A school's coupons are its own and those for every school.
      if (filter.schoolId !== undefined) query.where((q) => q.where('c.school_id', filter.schoolId).orWhereNull('c.school_id'));
      return ((await query) as CouponRow[]).map(toRecord);
    },

    async find(id: number, tx?: Tx): Promise<CouponRecord | undefined> {
      const row = (await select(runner(knex, tx)).where('c.id', id).first()) as CouponRow | undefined;
      return row && toRecord(row);
    },

    async findByCode(code: string, tx?: Tx): Promise<CouponRecord | undefined> {
      const row = (await select(runner(knex, tx)).where('c.code', code).first()) as CouponRow | undefined;
      return row && toRecord(row);
    },

    schoolExists: async (schoolId: number): Promise<boolean> => (await knex('schools').where({ id: schoolId }).first('id')) !== undefined,

    async insert(coupon: CouponWrite): Promise<number> {
      const at = now();
      return insertedId(await knex('coupons').insert({ ...columns(coupon), created_at: at, updated_at: at }));
    },

    update: (id: number, coupon: CouponWrite): Promise<number> => knex('coupons').where({ id }).update({ ...columns(coupon), updated_at: now() }),

    /** Orders keep their code and discount: orders.coupon_id is SET NULL, redemptions go with the coupon. */
    delete: (id: number): Promise<number> => knex('coupons').where({ id }).delete(),

    /** Whether this lower-cased e-mail has an order holding or having paid a use of the coupon. */
    async usedByEmail(couponId: number, onceKey: string): Promise<boolean> {
      return (await knex('coupon_redemptions').where({ coupon_id: couponId, once_key: onceKey }).first('id')) !== undefined;
    },

    /** Whether any of these children has an order holding or having paid a use of the coupon. */
    async usedByChildren(couponId: number, studentIds: number[]): Promise<boolean> {
      if (studentIds.length === 0) return false;
      return (await knex('coupon_redemption_children').where({ coupon_id: couponId }).whereIn('student_id', studentIds).first('id')) !== undefined;
    },

    /**
     * Takes one use, if one is left: a single conditional update, so two checkouts can never both
     * take the last one (MariaDB locks the row; SQLite has one writer). 1 when taken, else 0.
     */
    takeUse: (couponId: number, tx: Tx): Promise<number> =>
      inTx(tx)('coupons')
        .where({ id: couponId })
        .where((q) => q.whereNull('max_uses').orWhereRaw('uses_held + uses_paid < max_uses'))
        .update({ uses_held: inTx(tx).raw('uses_held + 1'), updated_at: now() }),

    /** The order's redemption; throws a unique violation when `onceKey` already used this coupon. */
    async insertRedemption(redemption: { couponId: number; orderId: string; onceKey: string | null; paidAt?: number }, tx: Tx): Promise<void> {
      await inTx(tx)('coupon_redemptions').insert({
        coupon_id: redemption.couponId,
        order_id: redemption.orderId,
        once_key: redemption.onceKey,
        created_at: now(),
        paid_at: redemption.paidAt ?? null,
      });
    },

    /** One row per child; throws a unique violation when a child already used this coupon. */
    async insertChildren(couponId: number, orderId: string, studentIds: number[], tx: Tx): Promise<void> {
      if (studentIds.length === 0) return;
      await inTx(tx)('coupon_redemption_children').insert(studentIds.map((studentId) => ({ coupon_id: couponId, student_id: studentId, order_id: orderId })));
    },

    /** The order's redemption, if any. */
    async redemption(orderId: string, tx: Tx): Promise<{ couponId: number; paidAt: number | null } | undefined> {
      const row = await inTx(tx)('coupon_redemptions').where({ order_id: orderId }).first('coupon_id', 'paid_at');
      return row && { couponId: Number(row.coupon_id), paidAt: numberOrNull(row.paid_at) };
    },

    /** Marks the order's held redemption paid; 1 only for the one call that did. */
    markRedemptionPaid: (orderId: string, tx: Tx): Promise<number> =>
      inTx(tx)('coupon_redemptions').where({ order_id: orderId }).whereNull('paid_at').update({ paid_at: now() }),

    /** A held use became a paid one. */
    heldToPaid: (couponId: number, tx: Tx): Promise<number> =>
      inTx(tx)('coupons')
        .where({ id: couponId })
        .update({ uses_held: inTx(tx).raw('case when uses_held > 0 then uses_held - 1 else 0 end'), uses_paid: inTx(tx).raw('uses_paid + 1'), updated_at: now() }),

    /** A paid use without a held one (the order was paid after its use had been given back). */
    countPaid: (couponId: number, tx: Tx): Promise<number> =>
      inTx(tx)('coupons').where({ id: couponId }).update({ uses_paid: inTx(tx).raw('uses_paid + 1'), updated_at: now() }),

    /** The coupon an order was placed with (null when none, or the coupon was deleted since). */
    async orderCoupon(orderId: string, tx: Tx): Promise<number | null> {
      const row = await inTx(tx)('orders').where({ id: orderId }).first('coupon_id');
      return row ? numberOrNull(row.coupon_id) : null;
    },

    /**
     * Deletes the held (unpaid) redemption of an order that is cancelled and unpaid, with its
     * children; returns the coupon whose use comes back, or null when nothing was held.
     */
    async deleteHeld(orderId: string, tx: Tx): Promise<number | null> {
      const db = inTx(tx);
      const row = await db('coupon_redemptions as r')
        .join('orders as o', 'o.id', 'r.order_id')
        .where('r.order_id', orderId)
        .whereNull('r.paid_at')
        .where('o.order_status', 'cancelled')
        .whereNot('o.payment_status', 'completed')
        .first('r.coupon_id');
      if (!row) return null;
      // The delete decides: of two releases of one order, only one deletes the row.
      const deleted = await db('coupon_redemptions').where({ order_id: orderId }).whereNull('paid_at').delete();
      if (deleted === 0) return null;
      await db('coupon_redemption_children').where({ order_id: orderId }).delete();
      return Number(row.coupon_id);
    },

    /** Orders holding a use that has lapsed at `cutoff`, of one coupon or of all, oldest first. */
    lapsedHolds: async (cutoff: number, filter: { couponId?: number; limit: number }): Promise<string[]> => {
      const query = knex('coupon_redemptions as r').whereNull('r.paid_at').whereIn('r.order_id', lapsedOrders(knex, cutoff)).orderBy('r.id').limit(filter.limit);
      if (filter.couponId !== undefined) query.where('r.coupon_id', filter.couponId);
      return (await query.pluck('r.order_id')).map(String);
    },

    /**
     * Gives back the use an order holds when it has lapsed at `cutoff` (checked again here, in `tx`):
     * deletes its redemption and children and takes `uses_held - 1`; returns the coupon, or null
     * when the order held nothing or its use has not lapsed.
     */
    async releaseLapsed(orderId: string, cutoff: number, tx: Tx): Promise<number | null> {
      const db = inTx(tx);
      const held = await db('coupon_redemptions').where({ order_id: orderId }).whereNull('paid_at').first('coupon_id');
      if (!held) return null;
      const couponId = Number(held.coupon_id);
      // The coupon's row first, as a checkout takes it (MariaDB), so a release and a checkout of the
      // same coupon wait for each other in one order and never in a circle.
      if (db.client.config.client === 'mysql2') await db('coupons').where({ id: couponId }).forUpdate().first('id');
      const deleted = await db('coupon_redemptions').where({ order_id: orderId }).whereNull('paid_at').whereIn('order_id', lapsedOrders(db, cutoff, orderId)).delete();
      if (deleted === 0) return null;
      await db('coupon_redemption_children').where({ order_id: orderId }).delete();
      await db('coupons')
        .where({ id: couponId })
        .where('uses_held', '>', 0)
        .update({ uses_held: db.raw('uses_held - 1'), updated_at: now() });
      return couponId;
    },

    /** Whether the order was placed with a coupon, read outside any transaction: an order never gains one later (its coupon_id is only ever cleared). */
    async placedWithCoupon(orderId: string): Promise<boolean> {
      const order = await knex('orders').where({ id: orderId }).first('coupon_id');
      return order !== undefined && order.coupon_id !== null;
    },

    /**
     * What paying an order with a coupon needs to know (`reclaim`): the coupon it was placed with
     * (null when none, or deleted since), whether it still holds or has paid a use, the address it
     * was placed with and its children.
     */
    async orderUse(orderId: string, tx: Tx): Promise<{ couponId: number | null; held: boolean; email: string; studentIds: number[] } | undefined> {
      const db = inTx(tx);
      const order = await db('orders').where({ id: orderId }).first('coupon_id', 'customer_email');
      if (!order) return undefined;
      const held = (await db('coupon_redemptions').where({ order_id: orderId }).first('id')) !== undefined;
      const items = await db('order_items').where({ order_id: orderId }).whereNotNull('student_id').distinct('student_id');
      const packages = await db('order_packages').where({ order_id: orderId }).whereNotNull('student_id').distinct('student_id');
      const studentIds = [...new Set([...items, ...packages].map((row: { student_id: number }) => Number(row.student_id)))].sort((a, b) => a - b);
      return { couponId: numberOrNull(order.coupon_id), held, email: String(order.customer_email), studentIds };
    },

    /** A held use given back. */
    giveBack: (couponId: number, tx: Tx): Promise<number> =>
      inTx(tx)('coupons')
        .where({ id: couponId })
        .where('uses_held', '>', 0)
        .update({ uses_held: inTx(tx).raw('uses_held - 1'), updated_at: now() }),
  };
}
export type CouponRepository = ReturnType<typeof createCouponRepository>;
