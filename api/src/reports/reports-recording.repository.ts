import type { Knex } from 'knex';
import { runner, type Tx } from '../db/database';
import type { ReportItemKind } from '../../contract/reports';

/**
 * The rows the season reports read (docs/reports.md, "How the figures stay fast"): sales_lines,
 * written with each order and marked when it is paid, and gallery_visits. The only knex user of
 * the recording side; the reports queries live in reports.repository.ts.
 */

/** One sale line as the order's creation writes it. */
export interface NewSaleLine {
  orderId: string;
  schoolId: number;
  albumId: number | null;
  studentId: number | null;
  itemKind: ReportItemKind;
  itemKey: string;
  itemName: string;
  digital: boolean;
  /** The digital part of `revenueThebe` (all of a digital line's, a package's digital contents' share). */
  digitalThebe: number;
  /** The first line of its order; the first line of its order in its class (docs/reports.md#how-the-figures-stay-fast). */
  orderFirst: boolean;
  classFirst: boolean;
  quantity: number;
  listThebe: number;
  revenueThebe: number;
  /** YYYYMMDD, Botswana. */
  placedDay: number;
  /** A package ordered before picture day (docs/prepaid.md, "The books"); absent: false. */
  prepaid?: boolean;
}

/** When each class of an unpaid order's lines was published (epoch ms; else its first photo; null: neither). */
export interface LineClass {
  albumId: number | null;
  publishedAt: number | null;
}

/** One gallery visit; `subject` is the unique (visitor, class, day) key. */
export interface NewVisit {
  schoolId: number;
  albumId: number | null;
  studentId: number | null;
  kind: 'child' | 'grant';
  visitor: string;
  day: number;
  subject: string;
  createdAt: number;
}

/** Where a child is: their class and its school. */
export interface ChildPlace {
  studentId: number;
  albumId: number;
  schoolId: number;
}

/** A paid line as the season roll-up reads it. */
export interface UnrolledLineRow {
  id?: number;
  school_id: number;
  album_id: number | null;
  student_id?: number | null;
  item_key: string;
  item_kind: string;
  item_name: string;
  class_first: number | boolean;
  order_first: number | boolean;
  digital: number | boolean;
  quantity: number;
  revenue_thebe: number | string;
  digital_thebe: number | string;
}
export interface SeasonKeyRow {
  school_id: number;
  album_key: number;
}
export interface SeasonTotalRow extends SeasonKeyRow {
  paid_orders: number;
  school_orders: number;
  revenue_thebe: number;
  digital_revenue_thebe: number;
}
export interface SeasonItemRow extends SeasonKeyRow {
  item_key: string;
  item_kind: string;
  item_name: string;
  quantity: number;
  revenue_thebe: number;
}

export interface SeasonChildRow extends SeasonKeyRow {
  student_id: number;
}
/** The (school, class, child) of a paid line; null for a line without a child. */
function seasonChildOf(line: UnrolledLineRow): SeasonChildRow | null {
  if (line.student_id === null || line.student_id === undefined) return null;
  return { school_id: Number(line.school_id), album_key: line.album_id === null ? 0 : Number(line.album_id), student_id: Number(line.student_id) };
}
const seasonChildKey = (row: SeasonChildRow): string => `${Number(row.school_id)}:${Number(row.album_key)}:${Number(row.student_id)}`;

/** The (school, class, child) of these paid lines that `sales_class_children` does not hold yet. */
export async function childrenNotCounted(db: Knex.Transaction, lines: readonly UnrolledLineRow[]): Promise<SeasonChildRow[]> {
  const children = new Map<string, SeasonChildRow>();
  for (const line of lines) {
    const child = seasonChildOf(line);
    if (child) children.set(seasonChildKey(child), child);
  }
  if (children.size === 0) return [];
  const schoolIds = [...new Set([...children.values()].map((child) => child.school_id))];
  for (const row of (await db('sales_class_children').whereIn('school_id', schoolIds).select('school_id', 'album_key', 'student_id')) as SeasonChildRow[]) {
    children.delete(seasonChildKey(row));
  }
  return [...children.values()];
}

/** Adds one paid line into season totals keyed `school:albumKey` and items keyed `school:albumKey:item` (albumKey 0: no class). */
export function addLineToSeason(line: UnrolledLineRow, totals: Map<string, SeasonTotalRow>, items: Map<string, SeasonItemRow>): void {
  const schoolId = Number(line.school_id);
  const albumKey = line.album_id === null ? 0 : Number(line.album_id);
  const revenue = Number(line.revenue_thebe);
  const classKey = `${schoolId}:${albumKey}`;
  const total = totals.get(classKey) ?? { school_id: schoolId, album_key: albumKey, paid_orders: 0, school_orders: 0, revenue_thebe: 0, digital_revenue_thebe: 0 };
  total.paid_orders += line.class_first ? 1 : 0;
  total.school_orders += line.order_first ? 1 : 0;
  total.revenue_thebe += revenue;
  total.digital_revenue_thebe += Number(line.digital_thebe);
  totals.set(classKey, total);
  const itemKey = `${classKey}:${line.item_key}`;
  const item = items.get(itemKey);
  if (item) {
    item.quantity += Number(line.quantity);
    item.revenue_thebe += revenue;
    if (line.item_kind > item.item_kind) item.item_kind = line.item_kind;
    if (line.item_name > item.item_name) item.item_name = line.item_name;
  } else {
    items.set(itemKey, { school_id: schoolId, album_key: albumKey, item_key: line.item_key, item_kind: line.item_kind, item_name: line.item_name, quantity: Number(line.quantity), revenue_thebe: revenue });
  }
}

const INSERT_CHUNK = 200;
const num = (value: number | string | null | undefined): number | null => (value === null || value === undefined ? null : Number(value));

export function createReportsRecordingRepository(knex: Knex) {
  return {
    async insertSalesLines(lines: readonly NewSaleLine[], tx?: Tx): Promise<void> {
      const db = runner(knex, tx);
      for (let start = 0; start < lines.length; start += INSERT_CHUNK) {
        await db('sales_lines').insert(
          lines.slice(start, start + INSERT_CHUNK).map((line) => ({
            order_id: line.orderId,
            school_id: line.schoolId,
            album_id: line.albumId,
            student_id: line.studentId,
            item_kind: line.itemKind,
            item_key: line.itemKey,
            item_name: line.itemName,
            digital: line.digital,
            digital_thebe: line.digitalThebe,
            order_first: line.orderFirst,
            class_first: line.classFirst,
            quantity: line.quantity,
            list_thebe: line.listThebe,
            revenue_thebe: line.revenueThebe,
            placed_day: line.placedDay,
            prepaid: line.prepaid ?? false,
          })),
        );
      }
    },

    /**
     * The classes of the order's lines not yet marked paid, with their publish time: the class's
     * `published_at`, else its first photo's upload (as season.repository.ts reads it).
     */
    async unpaidLineClasses(orderId: string, tx?: Tx): Promise<LineClass[]> {
      const db = runner(knex, tx);
      const first = db('photos').where('photos.album_id', db.ref('a.id')).andWhere('photos.kind', 'photo').min('photos.created_at');
      const rows = (await db('sales_lines as sl')
        .leftJoin('albums as a', 'a.id', 'sl.album_id')
        .where('sl.order_id', orderId)
        .whereNull('sl.paid_at')
        .select('sl.album_id', 'a.published_at', first.as('first_photo_at'))) as {
        album_id: number | null;
        published_at: number | string | null;
        first_photo_at: number | string | null;
      }[];
      // An order has a handful of lines: one entry per class.
      const byAlbum = new Map<number | null, LineClass>();
      for (const row of rows) byAlbum.set(num(row.album_id), { albumId: num(row.album_id), publishedAt: num(row.published_at) ?? num(row.first_photo_at) });
      return [...byAlbum.values()];
    },

    /** Marks the order's unpaid lines of one class (null: lines without a class) paid; 0 when already marked. */
    async markPaid(orderId: string, albumId: number | null, paid: { paidDay: number; paidAt: number; publishOffset: number | null }, tx?: Tx): Promise<number> {
      const query = runner(knex, tx)('sales_lines').where('order_id', orderId).whereNull('paid_at');
      if (albumId === null) query.whereNull('album_id');
      else query.where('album_id', albumId);
      return query.update({ paid_day: paid.paidDay, paid_at: paid.paidAt, publish_offset: paid.publishOffset });
    },

    /**
     * Adds up to `limit` paid lines not yet rolled up into the season totals and marks them, in one
     * transaction (docs/reports.md#how-the-figures-stay-fast). Returns how many it rolled up. Run by
     * one process at a time (the job lock): it reads the totals it changes and writes them back.
     */
    async rollUpPaidLines(limit: number): Promise<number> {
      return knex.transaction(async (tx) => {
        const lines = (await tx('sales_lines')
          .where('rolled_up', false)
          .whereNotNull('paid_day')
          .orderBy('id')
          .limit(limit)
          .select('id', 'school_id', 'album_id', 'student_id', 'item_key', 'item_kind', 'item_name', 'class_first', 'order_first', 'digital', 'quantity', 'revenue_thebe', 'digital_thebe')) as UnrolledLineRow[];
        if (lines.length === 0) return 0;
        const totals = new Map<string, SeasonTotalRow>();
        const items = new Map<string, SeasonItemRow>();
        for (const line of lines) addLineToSeason(line, totals, items);
        const schoolIds = [...new Set(lines.map((line) => Number(line.school_id)))];
        const known = new Set<string>();
        for (const row of (await tx('sales_class_totals').whereIn('school_id', schoolIds).select('school_id', 'album_key')) as SeasonKeyRow[]) known.add(`${row.school_id}:${row.album_key}`);
        for (const row of (await tx('sales_class_items').whereIn('school_id', schoolIds).select('school_id', 'album_key', 'item_key', 'item_name')) as (SeasonKeyRow & { item_key: string; item_name: string })[]) {
          const key = `${row.school_id}:${row.album_key}:${row.item_key}`;
          known.add(key);
          const item = items.get(key);
          // The greatest name sold, as the report over the lines shows it.
          if (item && row.item_name > item.item_name) item.item_name = row.item_name;
        }
        for (const [key, row] of totals) {
          if (!known.has(key)) await tx('sales_class_totals').insert(row);
          else {
            await tx('sales_class_totals')
              .where({ school_id: row.school_id, album_key: row.album_key })
              .update({
                paid_orders: tx.raw('paid_orders + ?', [row.paid_orders]),
                school_orders: tx.raw('school_orders + ?', [row.school_orders]),
                revenue_thebe: tx.raw('revenue_thebe + ?', [row.revenue_thebe]),
                digital_revenue_thebe: tx.raw('digital_revenue_thebe + ?', [row.digital_revenue_thebe]),
              });
          }
        }
        for (const [key, row] of items) {
          if (!known.has(key)) await tx('sales_class_items').insert(row);
          else {
            await tx('sales_class_items')
              .where({ school_id: row.school_id, album_key: row.album_key, item_key: row.item_key })
              .update({ item_kind: row.item_kind, item_name: row.item_name, quantity: tx.raw('quantity + ?', [row.quantity]), revenue_thebe: tx.raw('revenue_thebe + ?', [row.revenue_thebe]) });
          }
        }
        for (const row of await childrenNotCounted(tx, lines)) await tx('sales_class_children').insert(row);
        const ids = lines.map((line) => Number(line.id));
        // Marked only while still unmarked: should a second roll-up ever run at once (a lock lost),
        // one of the two finds fewer lines to mark and rolls back, so no line is counted twice.
        let marked = 0;
        for (let start = 0; start < ids.length; start += 500) {
          marked += Number(await tx('sales_lines').whereIn('id', ids.slice(start, start + 500)).where('rolled_up', false).update({ rolled_up: true }));
        }
        if (marked !== ids.length) throw new Error(`another roll-up marked ${ids.length - marked} of these ${ids.length} sale lines first; this one is rolled back`);
        return lines.length;
      });
    },

    /** Inserts the visits, a (visitor, class, day) seen before being skipped by the database. */
    async recordVisits(visits: readonly NewVisit[]): Promise<void> {
      if (visits.length === 0) return;
      await knex('gallery_visits')
        .insert(
          visits.map((visit) => ({
            school_id: visit.schoolId,
            album_id: visit.albumId,
            student_id: visit.studentId,
            kind: visit.kind,
            visitor: visit.visitor,
            day: visit.day,
            subject: visit.subject,
            created_at: visit.createdAt,
          })),
        )
        .onConflict('subject')
        .ignore();
    },

    /** The school of a class; undefined when there is no such class. */
    async schoolOfClass(albumId: number): Promise<number | undefined> {
      const row = (await knex('albums').where('id', albumId).first('school_id')) as { school_id: number } | undefined;
      return row ? Number(row.school_id) : undefined;
    },

    /** The class and school of each of these children (an erased child is not found). */
    async childPlaces(studentIds: readonly number[]): Promise<ChildPlace[]> {
      if (studentIds.length === 0) return [];
      const rows = (await knex('students as st').join('albums as a', 'a.id', 'st.album_id').whereIn('st.id', [...new Set(studentIds)]).select('st.id', 'st.album_id', 'a.school_id')) as {
        id: number;
        album_id: number;
        school_id: number;
      }[];
      return rows.map((row) => ({ studentId: Number(row.id), albumId: Number(row.album_id), schoolId: Number(row.school_id) }));
    },
  };
}
export type ReportsRecordingRepository = ReturnType<typeof createReportsRecordingRepository>;
