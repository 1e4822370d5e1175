import type { Knex } from 'knex';
import type { OrderStatus } from '../../contract/constants';
import { PRINT_READY_ORDER_STATUSES, type PrintBatchStatus } from '../../contract/print-batches';
import { inTx, type Tx } from '../db/database';
import { insertedId, type Dialect } from '../db/knex';

export interface PrintBatchRecord {
  id: number;
  schoolId: number;
  schoolName: string;
  status: PrintBatchStatus;
  orderCount: number;
  printCount: number;
  createdAt: number;
  updatedAt: number;
  /** When a sold photo of the batch was moved or withheld after it was made: its packing list and labels changed (docs/statuses.md, "Print batches"). */
  documentsChangedAt: number | null;
}

export interface ReadinessRecord {
  schoolId: number;
  schoolName: string;
  orderCount: number;
  printCount: number;
}

/** A print line of a batched order, with what the lab needs to find and name its original. */
export interface BatchLineRecord {
  itemId: number;
  productName: string;
  /** The package line this print is part of (docs/packages-and-coupons.md, "Where packages and discounts show"), or null for a single product. */
  packageName: string | null;
  quantity: number;
  photoId: number | null;
  originalName: string | null;
  originalNumber: string | null;
  /** The generated file name kept on the order line (used when the original name is gone). */
  storedName: string | null;
  className: string | null;
  /**
   * The child the line was for: the name of the photo's student when the order was placed
   * (order_items.student_id), or null for a group photo or a child since erased.
   */
  studentName: string | null;
  /** The original in storage, or null when the photo row is gone. */
  file: { storageKey: string; mimeType: string; size: number } | null;
  /** The child the line was ordered for (order_items.student_id), null for a group photo. */
  lineStudentId: number | null;
  /** The line's photo as it is now, or null when it is gone (docs/access.md, "Prints follow the rules"). */
  photoNow: { studentId: number | null; inTray: boolean; card: boolean; doNotPublish: boolean } | null;
}

export interface BatchOrderRecord {
  id: string;
  studentName: string;
  customerName: string;
  orderStatus: OrderStatus;
  createdAt: number;
  lines: BatchLineRecord[];
}

interface BatchRow {
  id: number;
  school_id: number;
  school_name: string;
  status: PrintBatchStatus;
  created_at: number | string;
  updated_at: number | string;
  documents_changed_at?: number | string | null;
}

interface LineRow {
  order_id: string;
  student_name: string;
  customer_name: string;
  order_status: OrderStatus;
  order_created_at: number | string;
  item_id: number;
  product_name: string;
  package_name: string | null;
  quantity: number;
  photo_id: number | null;
  photo_original_name: string | null;
  photo_original_number: string | null;
  photo_filename: string | null;
  class_name: string | null;
  line_student_name: string | null;
  storage_key: string | null;
  mime_type: string | null;
  file_size: number | null;
  line_student_id: number | null;
  now_photo_id: number | null;
  now_student_id: number | null;
  now_in_tray: number | boolean | null;
  now_kind: string | null;
  now_dnp: number | boolean | null;
}

/**
 * Keeps only print lines: the kind each line's product had when the order was placed
 * (docs/money-and-pricing.md, "Print and digital products"), so counts, selection and the lab's
 * files agree on what a print is.
 */
function printLinesOnly(query: Knex.QueryBuilder, alias: string): Knex.QueryBuilder {
  return query.where(`${alias}.kind`, 'print');
}

/**
 * Keeps only the print lines that go to the lab (items aliased `i`): the rules of leftOutReason()
 * in batch-plan.ts in SQL, so a batch's counts are what the lab receives (docs/access.md, "Prints
 * follow the rules"): the photo is still there, its child is not do not publish, and it is still
 * the ordering child's (not moved to another child or the tray, not a card).
 */
function labLinesOnly(query: Knex.QueryBuilder): Knex.QueryBuilder {
  return printLinesOnly(query, 'i')
    .join('photos as lab_p', 'lab_p.id', 'i.photo_id')
    .leftJoin('students as lab_st', 'lab_st.id', 'lab_p.student_id')
    .where((dnp) => dnp.whereNull('lab_st.do_not_publish').orWhere('lab_st.do_not_publish', false))
    .whereNot('lab_p.kind', 'card')
    .where('lab_p.in_tray', false)
    .where((same) => same.whereRaw('lab_p.student_id = i.student_id').orWhere((none) => none.whereNull('lab_p.student_id').whereNull('i.student_id')));
}

/**
 * Paid, not sent to the lab yet, in no batch, and with no package ordered before picture day still
 * waiting for its photos (orders aliased `o`): such an order goes to the lab once every prepaid
 * package of it is filled, with the chosen photos (docs/prepaid.md, "The lab").
 */
function readyOrdersOnly(db: Knex, query: Knex.QueryBuilder): Knex.QueryBuilder {
  return query
    .where('o.payment_status', 'completed')
    .whereIn('o.order_status', PRINT_READY_ORDER_STATUSES)
    .whereNotExists(db('print_batch_orders as linked').select(db.raw('1')).whereRaw('linked.order_id = o.id'))
    .whereNotExists(db('order_packages as waiting').select(db.raw('1')).whereRaw('waiting.order_id = o.id').where('waiting.prepaid', true).whereNull('waiting.poses_chosen_by'));
}

const toBatch = (row: BatchRow, totals: { orders: number; prints: number } | undefined): PrintBatchRecord => ({
  id: Number(row.id),
  schoolId: Number(row.school_id),
  schoolName: row.school_name,
  status: row.status,
  orderCount: totals?.orders ?? 0,
  printCount: totals?.prints ?? 0,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
  documentsChangedAt: row.documents_changed_at === null || row.documents_changed_at === undefined ? null : Number(row.documents_changed_at),
});

export function createPrintBatchRepository(knex: Knex, dialect: Dialect) {
  /** Prints and orders per batch, cancelled orders and left-out lines not counted. */
  async function totals(batchIds: number[], db: Knex = knex): Promise<Map<number, { orders: number; prints: number }>> {
    if (batchIds.length === 0) return new Map();
    const query = db('print_batch_orders as bo')
      .join('orders as o', 'o.id', 'bo.order_id')
      .join('order_items as i', 'i.order_id', 'o.id')
      .whereIn('bo.batch_id', batchIds)
      .whereNot('o.order_status', 'cancelled')
      .groupBy('bo.batch_id')
      .select('bo.batch_id', db.raw('count(distinct o.id) as order_count'), db.raw('sum(i.quantity) as print_count'));
    const rows = (await labLinesOnly(query)) as { batch_id: number; order_count: number | string; print_count: number | string | null }[];
    return new Map(rows.map((row) => [Number(row.batch_id), { orders: Number(row.order_count), prints: Number(row.print_count ?? 0) }]));
  }

  const batchQuery = (db: Knex) =>
    db('print_batches as b')
      .join('schools as s', 's.id', 'b.school_id')
      .select('b.id', 'b.school_id', 's.name as school_name', 'b.status', 'b.created_at', 'b.updated_at', 'b.documents_changed_at');

  return {
    async school(id: number): Promise<{ id: number; name: string } | undefined> {
      const row = (await knex('schools').where({ id }).first('id', 'name')) as { id: number; name: string } | undefined;
      return row && { id: Number(row.id), name: row.name };
    },

    /** When the staff member's credentials were last reset, or undefined when the account is gone. */
    async staffValidAfter(id: number): Promise<number | undefined> {
      const row = (await knex('staff').where({ id }).first('tokens_valid_after')) as { tokens_valid_after: number | string } | undefined;
      return row ? Number(row.tokens_valid_after) : undefined;
    },

    async readiness(): Promise<ReadinessRecord[]> {
      const schools = (await knex('schools').select('id', 'name')) as { id: number; name: string }[];
      const query = readyOrdersOnly(knex, knex('orders as o').join('order_items as i', 'i.order_id', 'o.id'))
        .groupBy('o.school_id')
        .select('o.school_id', knex.raw('count(distinct o.id) as order_count'), knex.raw('sum(i.quantity) as print_count'));
      const rows = (await labLinesOnly(query)) as { school_id: number; order_count: number | string; print_count: number | string | null }[];
      const bySchool = new Map(rows.map((row) => [Number(row.school_id), row]));
      return schools.map((school) => {
        const row = bySchool.get(Number(school.id));
        return { schoolId: Number(school.id), schoolName: school.name, orderCount: Number(row?.order_count ?? 0), printCount: Number(row?.print_count ?? 0) };
      });
    },

    /**
     * The orders a new batch for the school takes. On MySQL the rows are locked, so a concurrent
     * creation for the same school waits here and then finds them taken.
     */
    async readyOrderIds(schoolId: number, tx: Tx): Promise<string[]> {
      const trx = inTx(tx);
      const query = readyOrdersOnly(trx, trx('orders as o').where('o.school_id', schoolId))
        .whereExists(printLinesOnly(trx('order_items as i').select(trx.raw('1')).whereRaw('i.order_id = o.id'), 'i'))
        .orderBy('o.id')
        .select('o.id');
      if (dialect === 'mysql') query.forUpdate();
      return ((await query) as { id: string }[]).map((row) => row.id);
    },

    async insertBatch(schoolId: number, status: PrintBatchStatus, at: number, tx: Tx): Promise<number> {
      const trx = inTx(tx);
      return insertedId(await trx('print_batches').insert({ school_id: schoolId, status, created_at: at, updated_at: at }));
    },

    /** The primary key on order_id refuses an order already in a batch: the database's own guard. */
    async linkOrders(batchId: number, orderIds: string[], tx: Tx): Promise<void> {
      const trx = inTx(tx);
      for (let start = 0; start < orderIds.length; start += 500) {
        await trx('print_batch_orders').insert(orderIds.slice(start, start + 500).map((orderId) => ({ order_id: orderId, batch_id: batchId })));
      }
    },

    /** Moves the listed orders that are still in one of `from`; returns how many moved. */
    async moveOrders(orderIds: string[], to: OrderStatus, from: readonly OrderStatus[], at: number, tx: Tx): Promise<number> {
      const trx = inTx(tx);
      let moved = 0;
      for (let start = 0; start < orderIds.length; start += 500) {
        moved += await trx('orders')
          .whereIn('id', orderIds.slice(start, start + 500))
          .whereIn('order_status', from)
          .update({ order_status: to, updated_at: at });
      }
      return moved;
    },

    /** Moves every order of the batch that is in one of `from` (never a cancelled one). */
    async moveBatchOrders(batchId: number, to: OrderStatus, from: readonly OrderStatus[], at: number, tx: Tx): Promise<number> {
      const trx = inTx(tx);
      return trx('orders')
        .whereIn('id', trx('print_batch_orders').where({ batch_id: batchId }).select('order_id'))
        .whereIn('order_status', from)
        .update({ order_status: to, updated_at: at });
    },

    /** The batch's status, locked on MySQL so two status changes apply one after the other. */
    async lockStatus(batchId: number, tx: Tx): Promise<PrintBatchStatus | undefined> {
      const trx = inTx(tx);
      const query = trx('print_batches').where({ id: batchId }).first('status');
      if (dialect === 'mysql') query.forUpdate();
      const row = (await query) as { status: PrintBatchStatus } | undefined;
      return row?.status;
    },

    async setStatus(batchId: number, status: PrintBatchStatus, at: number, tx: Tx): Promise<void> {
      const trx = inTx(tx);
      await trx('print_batches').where({ id: batchId }).update({ status, updated_at: at });
    },

    async find(id: number): Promise<PrintBatchRecord | undefined> {
      const row = (await batchQuery(knex).where('b.id', id).first()) as BatchRow | undefined;
      return row && toBatch(row, (await totals([Number(row.id)])).get(Number(row.id)));
    },

    async list(filter: { schoolId?: number }): Promise<PrintBatchRecord[]> {
      const query = batchQuery(knex).orderBy([
        { column: 'b.created_at', order: 'desc' },
        { column: 'b.id', order: 'desc' },
      ]);
      if (filter.schoolId) query.where('b.school_id', filter.schoolId);
      const rows = (await query) as BatchRow[];
      const all = await totals(rows.map((row) => Number(row.id)));
      return rows.map((row) => toBatch(row, all.get(Number(row.id))));
    },

    /** Every order of the batch (cancelled ones too) with its print lines, in a stable order. */
    async contents(batchId: number): Promise<BatchOrderRecord[]> {
      const query = knex('print_batch_orders as bo')
        .join('orders as o', 'o.id', 'bo.order_id')
        .join('order_items as i', 'i.order_id', 'o.id')
        .leftJoin('photos as p', 'p.id', 'i.photo_id')
        .leftJoin('albums as a', 'a.id', 'i.album_id')
        .leftJoin('students as st', 'st.id', 'i.student_id')
        .leftJoin('students as pst', 'pst.id', 'p.student_id')
        .leftJoin('order_packages as op', 'op.id', 'i.order_package_id')
        .where('bo.batch_id', batchId)
        .orderBy([{ column: 'o.id' }, { column: 'i.id' }])
        .select(
          'o.id as order_id',
          'o.student_name',
          'o.customer_name',
          'o.order_status',
          'o.created_at as order_created_at',
          'i.id as item_id',
          'i.product_name',
          'op.name as package_name',
          'i.quantity',
          'i.photo_id',
          'i.photo_original_name',
          'i.photo_original_number',
          'i.photo_filename',
          'a.name as class_name',
          'st.name as line_student_name',
          'p.storage_key',
          'p.mime_type',
          'p.file_size',
          'i.student_id as line_student_id',
          'p.id as now_photo_id',
          'p.student_id as now_student_id',
          'p.in_tray as now_in_tray',
          'p.kind as now_kind',
          'pst.do_not_publish as now_dnp',
        );
      const rows = (await printLinesOnly(query, 'i')) as LineRow[];
      const orders = new Map<string, BatchOrderRecord>();
      for (const row of rows) {
        let order = orders.get(row.order_id);
        if (!order) {
          order = {
            id: row.order_id,
            studentName: row.student_name,
            customerName: row.customer_name,
            orderStatus: row.order_status,
            createdAt: Number(row.order_created_at),
            lines: [],
          };
          orders.set(row.order_id, order);
        }
        order.lines.push({
          itemId: Number(row.item_id),
          productName: row.product_name,
          packageName: row.package_name ?? null,
          quantity: Number(row.quantity),
          photoId: row.photo_id === null ? null : Number(row.photo_id),
          originalName: row.photo_original_name,
          originalNumber: row.photo_original_number,
          storedName: row.photo_filename,
          className: row.class_name,
          studentName: row.line_student_name,
          file: row.storage_key && row.mime_type ? { storageKey: row.storage_key, mimeType: row.mime_type, size: Number(row.file_size ?? 0) } : null,
          lineStudentId: row.line_student_id === null ? null : Number(row.line_student_id),
          photoNow:
            row.now_photo_id === null
              ? null
              : {
                  studentId: row.now_student_id === null ? null : Number(row.now_student_id),
                  inTray: Boolean(Number(row.now_in_tray ?? 0)),
                  card: row.now_kind === 'card',
                  doNotPublish: Boolean(Number(row.now_dnp ?? 0)),
                },
        });
      }
      return [...orders.values()];
    },
  };
}
export type PrintBatchRepository = ReturnType<typeof createPrintBatchRepository>;
