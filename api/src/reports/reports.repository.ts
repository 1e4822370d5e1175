import type { Knex } from 'knex';
import { GABORONE_OFFSET_MS } from '../outreach/send-window';
import { addLineToSeason, childrenNotCounted, type SeasonItemRow, type SeasonTotalRow, type UnrolledLineRow } from './reports-recording.repository';

const DAY_MS = 24 * 3600_000;

/**
 * The queries of the season reports (docs/reports.md). Every figure is aggregated in SQL over the
 * narrow `sales_lines` and `gallery_visits` tables and their covering indexes
 * (docs/reports.md#how-the-figures-stay-fast); no order is loaded into memory. Days are integers
 * YYYYMMDD in Botswana time; a range is inclusive and either end may be open (null).
 */

export interface DayRange {
  from: number | null;
  to: number | null;
}

export interface ReportSchoolRecord {
  id: number;
  name: string;
  accessMode: string;
  closingDate: string | null;
}

export interface ReportClassRecord {
  id: number;
  schoolId: number;
  name: string;
  status: string;
  archived: boolean;
  publishedAt: number | null;
  firstPhotoAt: number | null;
}

/** Paid sale lines of one class (albumId set) or one school (albumId null) in the range. */
export interface PaidFiguresRecord {
  schoolId: number;
  albumId: number | null;
  paidOrders: number;
  /** Orders whose first line is in this row: a school's paid orders are their sum. */
  schoolOrders: number;
  orderingChildren: number;
  revenueThebe: number;
  digitalRevenueThebe: number;
}

export interface ItemFiguresRecord {
  schoolId: number;
  albumId: number | null;
  key: string;
  kind: string;
  name: string;
  quantity: number;
  revenueThebe: number;
}

export interface OpenedRecord {
  schoolId: number;
  albumId: number | null;
  kind: string;
  visitors: number;
}

export interface PendingRecord {
  schoolId: number;
  albumId: number | null;
  /** A class's waiting orders (0 on a school's row). */
  orders: number;
  /** A school's waiting orders (0 on a class's row). */
  schoolOrders: number;
  /** A school's waiting total (0 on a class's row). */
  thebe: number;
  /** A class's part of the waiting totals (0 on a school's row). */
  classThebe: number;
}

/** One flagged order's lines in one class (albumId null: lines without a class). */
export interface RefundLinesRecord {
  orderId: string;
  schoolId: number;
  albumId: number | null;
  totalThebe: number;
  times: number;
  linesRevenueThebe: number;
}

export interface SalesFilter extends DayRange {
  schoolId: number | null;
  albumId: number | null;
}

const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
const idOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** A paid line counts on its paid day; an open end of the range leaves that side unbounded. */
function inRange<T extends Knex.QueryBuilder>(query: T, column: string, range: DayRange): T {
  if (range.from !== null) void query.where(column, '>=', range.from);
  if (range.to !== null) void query.where(column, '<=', range.to);
  return query;
}

/** The epoch ms at which a Botswana day YYYYMMDD begins (UTC+2, docs/reports.md#dates-and-ranges). */
export function dayStartMs(day: number): number {
  return Date.UTC(Math.floor(day / 10000), (Math.floor(day / 100) % 100) - 1, day % 100) - GABORONE_OFFSET_MS;
}

/** Orders placed in the range: on `orders.created_at`, the same days as the lines' `placed_day`. */
function placedInRange<T extends Knex.QueryBuilder>(query: T, range: DayRange): T {
  if (range.from !== null) void query.where('o.created_at', '>=', dayStartMs(range.from));
  if (range.to !== null) void query.where('o.created_at', '<', dayStartMs(range.to) + DAY_MS);
  return query;
}

export function createReportsRepository(knex: Knex) {
  /** Paid sale lines in the range (payment completed: paid_day is set then, exactly once). */
  const paidLines = (range: DayRange) => inRange(knex('sales_lines').whereNotNull('paid_day'), 'paid_day', range);
  /**
   * The same lines for the per-class passes: the range is written on `paid_day + 0`, which no index
   * can seek, so the planner keeps the (school, class) covering index and its streaming GROUP BY
   * instead of seeking the day index and sorting every line of the range afterwards (SQLite did
   * that, and a 30-day range took twice the whole season).
   */
  const paidLinesByClass = (range: DayRange) => {
    const query = knex('sales_lines').whereNotNull('paid_day');
    if (range.from !== null) void query.where(knex.raw('paid_day + 0'), '>=', range.from);
    if (range.to !== null) void query.where(knex.raw('paid_day + 0'), '<=', range.to);
    return query;
  };

  return {
    /**
     * Prepaid revenue (docs/prepaid.md, "The books"): the revenue of the sale lines of packages
     * ordered before picture day, per school and class, on the day their order was paid.
     */
    async prepaidRevenue(range: DayRange): Promise<{ schoolId: number; albumId: number | null; revenueThebe: number }[]> {
      const rows = (await paidLines(range).where('prepaid', true).groupBy('school_id', 'album_id').select('school_id', 'album_id').sum({ revenue: 'revenue_thebe' })) as Record<string, unknown>[];
      return rows.map((row) => ({ schoolId: num(row.school_id), albumId: row.album_id === null ? null : num(row.album_id), revenueThebe: num(row.revenue) }));
    },

    /**
     * Packages waiting for photos (docs/prepaid.md, "The books"), now: the prepaid lines of paid,
     * not cancelled orders that nobody has chosen photos for yet, per school and the child's class;
     * `withoutPhoto` of them flagged at the closing date for a retake or a refund.
     */
    async packagesWaiting(): Promise<{ schoolId: number; albumId: number | null; waiting: number; withoutPhoto: number }[]> {
      const rows = (await knex('order_packages as op')
        .join('orders as o', 'o.id', 'op.order_id')
        .where('op.prepaid', true)
        .whereNull('op.poses_chosen_by')
        .where('o.payment_status', 'completed')
        .whereNot('o.order_status', 'cancelled')
        .groupBy('o.school_id', 'op.album_id')
        .select('o.school_id', 'op.album_id')
        .count({ waiting: '*' })
        .select(knex.raw('sum(case when op.no_photo_at is null then 0 else 1 end) as without_photo'))) as Record<string, unknown>[];
      return rows.map((row) => ({ schoolId: num(row.school_id), albumId: row.album_id === null ? null : num(row.album_id), waiting: num(row.waiting), withoutPhoto: num(row.without_photo) }));
    },

    async schools(): Promise<ReportSchoolRecord[]> {
      const rows = (await knex('schools').select('id', 'name', 'access_mode', 'closing_date')) as { id: number; name: string; access_mode: string; closing_date: string | null }[];
      return rows.map((row) => ({ id: Number(row.id), name: row.name, accessMode: row.access_mode, closingDate: row.closing_date ?? null }));
    },

    /** Every class, archived too, with its publish time and its first photo's (not a card). */
    async classes(): Promise<ReportClassRecord[]> {
      // One seek per class in photos_album_kind_created, rather than grouping every photo.
      const firstPhoto = knex('photos as p').where('p.album_id', knex.ref('a.id')).andWhere('p.kind', 'photo').min('p.created_at');
      const rows = (await knex('albums as a').select('a.id', 'a.school_id', 'a.name', 'a.status', 'a.archived_at', 'a.published_at', firstPhoto.as('first_photo_at'))) as {
        id: number;
        school_id: number;
        name: string;
        status: string;
        archived_at: number | string | null;
        published_at: number | string | null;
        first_photo_at: number | string | null;
      }[];
      return rows.map((row) => ({
        id: Number(row.id),
        schoolId: Number(row.school_id),
        name: row.name,
        status: row.status,
        archived: row.archived_at !== null,
        publishedAt: idOrNull(row.published_at),
        firstPhotoAt: idOrNull(row.first_photo_at),
      }));
    },

    /** Children on each class's roster; a class without a roster has no entry. */
    async rosterSizes(): Promise<Map<number, number>> {
      const rows = (await knex('students').groupBy('album_id').select('album_id').count({ heads: '*' })) as { album_id: number; heads: number | string }[];
      return new Map(rows.map((row) => [Number(row.album_id), num(row.heads)]));
    },

    /**
     * Per class (albumId null: lines without a class) from the paid lines in the range, in one pass
     * over one covering index. `paidOrders` counts the orders with a line in the class and
     * `schoolOrders` the orders whose first line is in it, both as sums of the lines' flags, so a
     * school's paid orders are the sum of its rows' `schoolOrders` (docs/reports.md#how-the-figures-stay-fast).
     */
    async paidFigures(range: DayRange): Promise<PaidFiguresRecord[]> {
      const rows = (await paidLinesByClass(range)
        .groupBy('school_id', 'album_id')
        .select('school_id', 'album_id')
        .sum({ paid_orders: knex.raw('case when class_first then 1 else 0 end') })
        .sum({ school_orders: knex.raw('case when order_first then 1 else 0 end') })
        .countDistinct({ children: 'student_id' })
        .sum({ revenue: 'revenue_thebe' })
        .sum({ digital_revenue: 'digital_thebe' })) as Record<string, unknown>[];
      return rows.map((row) => ({
        schoolId: Number(row.school_id),
        albumId: idOrNull(row.album_id),
        paidOrders: num(row.paid_orders),
        schoolOrders: num(row.school_orders),
        orderingChildren: num(row.children),
        revenueThebe: num(row.revenue),
        digitalRevenueThebe: num(row.digital_revenue),
      }));
    },

    /**
     * The paid figures and best sellers of the whole season, from the season totals the roll-up
     * job maintains plus the paid lines it has not rolled up yet, read in one transaction so a
     * roll-up committing meanwhile is seen wholly or not at all
     * (docs/reports.md#how-the-figures-stay-fast).
     */
    async seasonFigures(): Promise<{ paid: PaidFiguresRecord[]; items: ItemFiguresRecord[] }> {
      const read = await knex.transaction(async (tx) => {
        const totals = (await tx('sales_class_totals').select('school_id', 'album_key', 'paid_orders', 'school_orders', 'revenue_thebe', 'digital_revenue_thebe')) as SeasonTotalRow[];
        const items = (await tx('sales_class_items').select('school_id', 'album_key', 'item_key', 'item_kind', 'item_name', 'quantity', 'revenue_thebe')) as SeasonItemRow[];
        const children = (await tx('sales_class_children').groupBy('school_id', 'album_key').select('school_id', 'album_key').count({ children: '*' })) as Record<string, unknown>[];
        const unrolled = (await tx('sales_lines')
          .where('rolled_up', false)
          .whereNotNull('paid_day')
          .select('school_id', 'album_id', 'student_id', 'item_key', 'item_kind', 'item_name', 'class_first', 'order_first', 'digital', 'quantity', 'revenue_thebe', 'digital_thebe')) as UnrolledLineRow[];
        // A child of a line not rolled up yet counts only when not among the class's children already.
        const newChildren = await childrenNotCounted(tx, unrolled);
        return { totals, items, children, unrolled, newChildren };
      });
      const totals = new Map<string, SeasonTotalRow>();
      const items = new Map<string, SeasonItemRow>();
      for (const row of read.totals) {
        const total = { school_id: Number(row.school_id), album_key: Number(row.album_key), paid_orders: num(row.paid_orders), school_orders: num(row.school_orders), revenue_thebe: num(row.revenue_thebe), digital_revenue_thebe: num(row.digital_revenue_thebe) };
        totals.set(`${total.school_id}:${total.album_key}`, total);
      }
      for (const row of read.items) {
        const item = { school_id: Number(row.school_id), album_key: Number(row.album_key), item_key: String(row.item_key), item_kind: String(row.item_kind), item_name: String(row.item_name), quantity: num(row.quantity), revenue_thebe: num(row.revenue_thebe) };
        items.set(`${item.school_id}:${item.album_key}:${item.item_key}`, item);
      }
      for (const line of read.unrolled) addLineToSeason(line, totals, items);
      const childrenOf = new Map(read.children.map((row) => [`${Number(row.school_id)}:${Number(row.album_key)}`, num(row.children)]));
      for (const child of read.newChildren) {
        const key = `${child.school_id}:${child.album_key}`;
        childrenOf.set(key, (childrenOf.get(key) ?? 0) + 1);
      }
      const albumOf = (albumKey: number): number | null => (albumKey === 0 ? null : albumKey);
      return {
        paid: [...totals.entries()].map(([key, row]) => ({
          schoolId: row.school_id,
          albumId: albumOf(row.album_key),
          paidOrders: row.paid_orders,
          schoolOrders: row.school_orders,
          orderingChildren: childrenOf.get(key) ?? 0,
          revenueThebe: row.revenue_thebe,
          digitalRevenueThebe: row.digital_revenue_thebe,
        })),
        items: [...items.values()].map((row) => ({
          schoolId: row.school_id,
          albumId: albumOf(row.album_key),
          key: row.item_key,
          kind: row.item_kind,
          name: row.item_name,
          quantity: row.quantity,
          revenueThebe: row.revenue_thebe,
        })),
      };
    },

    /** Units and revenue of each product or package per class (lines without a class: albumId null). */
    async itemFigures(range: DayRange): Promise<ItemFiguresRecord[]> {
      const rows = (await paidLinesByClass(range)
        .groupBy('school_id', 'album_id', 'item_key')
        .select('school_id', 'album_id', 'item_key')
        .max({ item_kind: 'item_kind', item_name: 'item_name' })
        .sum({ quantity: 'quantity', revenue: 'revenue_thebe' })) as Record<string, unknown>[];
      return rows.map((row) => ({
        schoolId: Number(row.school_id),
        albumId: idOrNull(row.album_id),
        key: String(row.item_key),
        kind: String(row.item_kind),
        name: String(row.item_name),
        quantity: num(row.quantity),
        revenueThebe: num(row.revenue),
      }));
    },

    /** Distinct visitors per class and per school (albumId null), by kind of visit, in the range. */
    async opened(range: DayRange): Promise<OpenedRecord[]> {
      const visits = () => inRange(knex('gallery_visits'), 'day', range);
      const [classes, schools] = (await Promise.all([
        visits().whereNotNull('album_id').groupBy('school_id', 'album_id', 'kind').select('school_id', 'album_id', 'kind').countDistinct({ visitors: 'visitor' }),
        visits().groupBy('school_id', 'kind').select('school_id', 'kind').countDistinct({ visitors: 'visitor' }),
      ])) as Record<string, unknown>[][];
      return [...(classes ?? []), ...(schools ?? [])].map((row) => ({
        schoolId: Number(row.school_id),
        albumId: idOrNull(row.album_id),
        kind: String(row.kind),
        visitors: num(row.visitors),
      }));
    },

    /**
     * Orders waiting for payment placed in the range (docs/reports.md#unpaid-orders-and-refunds),
     * per class (albumId null: the school's orders over several classes or none). Read from the
     * few waiting orders through their own index: an order of one class (`orders.album_id`) counts
     * there whole; only an order over several classes is shared out by its lines.
     */
    async pending(range: DayRange): Promise<PendingRecord[]> {
      const waiting = () => placedInRange(knex('orders as o').where('o.order_status', 'pending').whereNot('o.payment_status', 'completed'), range);
      const [whole, shared] = (await Promise.all([
        waiting().groupBy('o.school_id', 'o.album_id').select('o.school_id', 'o.album_id').count({ orders: '*' }).sum({ thebe: 'o.total_thebe' }),
        waiting()
          .whereNull('o.album_id')
          .join('sales_lines as sl', 'sl.order_id', 'o.id')
          .whereNotNull('sl.album_id')
          .groupBy('sl.school_id', 'sl.album_id')
          .select('sl.school_id', 'sl.album_id')
          .sum({ orders: knex.raw('case when sl.class_first then 1 else 0 end') })
          .sum({ thebe: 'sl.revenue_thebe' }),
      ])) as Record<string, unknown>[][];
      return [
        // A school's waiting orders: every order once, with its total.
        ...(whole ?? []).map((row) => ({ schoolId: Number(row.school_id), albumId: null, orders: 0, schoolOrders: num(row.orders), thebe: num(row.thebe) })),
        // A class's: its one-class orders, and its lines of the others.
        ...(whole ?? [])
          .filter((row) => row.album_id !== null && row.album_id !== undefined)
          .map((row) => ({ schoolId: Number(row.school_id), albumId: Number(row.album_id), orders: num(row.orders), schoolOrders: 0, thebe: 0, classThebe: num(row.thebe) })),
        ...(shared ?? []).map((row) => ({ schoolId: Number(row.school_id), albumId: Number(row.album_id), orders: num(row.orders), schoolOrders: 0, thebe: 0, classThebe: num(row.thebe) })),
      ].map((row) => ({ classThebe: 0, ...row }));
    },

    /**
     * Orders flagged for a refund (paid twice, or paid after cancellation) placed in the range, with
     * their lines' revenue per class. The few flagged orders are found first, each flag through its
     * own index, and only their lines are read: a join led by the lines would read every line.
     */
    async refundLines(range: DayRange): Promise<RefundLinesRecord[]> {
      // The range is applied here rather than in SQL, where a planner may prefer the index on the
      // placing time and read every order of the range.
      const placedFrom = range.from === null ? -Infinity : dayStartMs(range.from);
      const placedBefore = range.to === null ? Infinity : dayStartMs(range.to) + DAY_MS;
      const flagged = (column: 'paid_after_cancel' | 'duplicate_payments') =>
        knex('orders').where(column, '>', 0).select('id', 'total_thebe', 'paid_after_cancel', 'duplicate_payments', 'created_at') as Promise<Record<string, unknown>[]>;
      const orders = new Map<string, { totalThebe: number; times: number }>();
      for (const row of (await Promise.all([flagged('paid_after_cancel'), flagged('duplicate_payments')])).flat()) {
        const placedAt = num(row.created_at);
        if (placedAt < placedFrom || placedAt >= placedBefore) continue;
        orders.set(String(row.id), { totalThebe: num(row.total_thebe), times: num(row.paid_after_cancel) + num(row.duplicate_payments) });
      }
      const ids = [...orders.keys()];
      const records: RefundLinesRecord[] = [];
      for (let start = 0; start < ids.length; start += 500) {
        const rows = (await knex('sales_lines')
          .whereIn('order_id', ids.slice(start, start + 500))
          .groupBy('order_id', 'school_id', 'album_id')
          .select('order_id', 'school_id', 'album_id')
          .sum({ revenue: 'revenue_thebe' })) as Record<string, unknown>[];
        for (const row of rows) {
          const order = orders.get(String(row.order_id));
          if (!order) continue;
          records.push({ orderId: String(row.order_id), schoolId: Number(row.school_id), albumId: idOrNull(row.album_id), ...order, linesRevenueThebe: num(row.revenue) });
        }
      }
      return records;
    },

    /**
     * Paid orders placed in the range that may have a withdrawn line (docs/reports.md#unpaid-orders-and-refunds):
     * a line whose photo is gone, no longer the line's child, in the tray, a card, waiting for
     * review, of a do-not-publish child or of a class not published. A superset: the caller decides
     * each line by lineWithdrawn(). Read from the photos that are withheld or moved, so a season of
     * lines whose photos are all still theirs costs one pass over the joined lines.
     */
    async withdrawnPaidCandidates(range: DayRange): Promise<string[]> {
      const query = knex('orders as o')
        .join('order_items as i', 'i.order_id', 'o.id')
        .leftJoin('photos as ph', 'ph.id', 'i.photo_id')
        .leftJoin('students as pst', 'pst.id', 'ph.student_id')
        .leftJoin('albums as pa', 'pa.id', 'ph.album_id')
        .where('o.payment_status', 'completed')
        .whereNot('o.order_status', 'cancelled')
        .whereNotNull('i.photo_id')
        .where((maybe) =>
          maybe
            .whereNull('ph.id')
            .orWhere('ph.in_tray', true)
            .orWhere('ph.pending_review', true)
            .orWhereNot('ph.kind', 'photo')
            .orWhere('pst.do_not_publish', true)
            .orWhereNot('pa.status', 'published')
            .orWhereRaw('not (ph.student_id = i.student_id or (ph.student_id is null and i.student_id is null))'),
        )
        .distinct('o.id');
      return ((await placedInRange(query, range)) as { id: string }[]).map((row) => String(row.id));
    },

    /** Paid orders and revenue per paid day (an order's lines share its paid day), oldest first. */
    async salesByDay(filter: SalesFilter): Promise<{ day: number; orders: number; revenueThebe: number }[]> {
      const query = paidLines(filter);
      if (filter.schoolId !== null) void query.where('school_id', filter.schoolId);
      if (filter.albumId !== null) void query.where('album_id', filter.albumId);
      const rows = (await query.groupBy('paid_day').orderBy('paid_day').select('paid_day').countDistinct({ orders: 'order_id' }).sum({ revenue: 'revenue_thebe' })) as Record<string, unknown>[];
      return rows.map((row) => ({ day: Number(row.paid_day), orders: num(row.orders), revenueThebe: num(row.revenue) }));
    },

    /** Revenue of the paid lines by days from their class's publish day (lines without one left out). */
    async revenueByPublishOffset(filter: SalesFilter): Promise<{ offset: number; revenueThebe: number }[]> {
      const query = paidLines(filter).whereNotNull('publish_offset');
      if (filter.schoolId !== null) void query.where('school_id', filter.schoolId);
      if (filter.albumId !== null) void query.where('album_id', filter.albumId);
      const rows = (await query.groupBy('publish_offset').select('publish_offset').sum({ revenue: 'revenue_thebe' })) as Record<string, unknown>[];
      return rows.map((row) => ({ offset: Number(row.publish_offset), revenueThebe: num(row.revenue) }));
    },

    async schoolExists(schoolId: number): Promise<boolean> {
      return (await knex('schools').where({ id: schoolId }).first('id')) !== undefined;
    },

    /** The school of a class, or null when there is no such class. */
    async schoolOfClass(albumId: number): Promise<number | null> {
      const row = (await knex('albums').where({ id: albumId }).first('school_id')) as { school_id: number } | undefined;
      return row ? Number(row.school_id) : null;
    },
  };
}

export type ReportsRepository = ReturnType<typeof createReportsRepository>;
