import type { Knex } from 'knex';
import { inTx, type Tx } from '../db/database';

const ID_CHUNK = 500;

/** A paid line of one of the photos, with the print batch that took it to the lab (prints only). */
export interface SoldLine {
  orderId: string;
  photoId: number;
  /** The child the line was ordered for (order_items.student_id), null for a group photo. */
  lineStudentId: number | null;
  /** The print batch holding this line for the lab, or null (not batched, or a digital copy). */
  batchId: number | null;
}

interface SoldLineRow {
  order_id: string;
  photo_id: number;
  student_id: number | null;
  kind: string;
  batch_id: number | null;
}

const toSoldLine = (row: SoldLineRow): SoldLine => ({
  orderId: row.order_id,
  photoId: Number(row.photo_id),
  lineStudentId: row.student_id === null ? null : Number(row.student_id),
  batchId: row.batch_id === null || row.batch_id === undefined || row.kind !== 'print' ? null : Number(row.batch_id),
});

/**
 * The paid lines of photos about to be moved or withheld (docs/access.md, "Moving a sold photo"),
 * read inside the moving transaction; and the batches whose packing list and labels that changes.
 */
export function createSoldPhotoRepository(_knex: Knex) {
  return {
    /** Lines of paid, not cancelled orders for these photos, oldest order first. */
    async soldLines(photoIds: readonly number[], tx: Tx): Promise<SoldLine[]> {
      const db = inTx(tx);
      const lines: SoldLine[] = [];
      // A long list of photos is asked in chunks (SQLite caps the parameters of one statement).
      for (let at = 0; at < photoIds.length; at += ID_CHUNK) {
        const rows = (await db('order_items as i')
          .join('orders as o', 'o.id', 'i.order_id')
          .leftJoin('print_batch_orders as pbo', 'pbo.order_id', 'o.id')
          .whereIn('i.photo_id', photoIds.slice(at, at + ID_CHUNK))
          .where('o.payment_status', 'completed')
          .whereNot('o.order_status', 'cancelled')
          .orderBy([{ column: 'o.created_at' }, { column: 'o.id' }, { column: 'i.id' }])
          .select('o.id as order_id', 'i.photo_id', 'i.student_id', 'i.kind', 'pbo.batch_id')) as SoldLineRow[];
        lines.push(...rows.map(toSoldLine));
      }
      return lines;
    },

    /**
     * Lines of paid, not cancelled orders whose photo the family still has (not already withdrawn:
     * still the line's own child's or group photo, a photo (no card), not in the tray or waiting for
     * review, its child not marked do not publish, its class published), of the photos of one child
     * or of one class: what marking that child do not publish, or putting that class back to draft,
     * would withdraw. Oldest order first.
     */
    async deliveredLines(scope: { studentId: number } | { albumId: number }, at: number, tx: Tx): Promise<SoldLine[]> {
      const db = inTx(tx);
      const query = db('order_items as i')
        .join('orders as o', 'o.id', 'i.order_id')
        .join('photos as ph', 'ph.id', 'i.photo_id')
        .join('albums as pa', 'pa.id', 'ph.album_id')
        .leftJoin('students as pst', 'pst.id', 'ph.student_id')
        .leftJoin('print_batch_orders as pbo', 'pbo.order_id', 'o.id')
        .where('o.payment_status', 'completed')
        .whereNot('o.order_status', 'cancelled')
        .where('ph.kind', 'photo')
        .where('ph.in_tray', false)
        .where('ph.pending_review', false)
        // The line's own child (or a group photo on both sides): a photo moved since is already withdrawn.
        .where((own) => own.whereRaw('ph.student_id = i.student_id').orWhere((group) => group.whereNull('ph.student_id').whereNull('i.student_id')))
        .where((visible) => visible.whereNull('pst.id').orWhere('pst.do_not_publish', false))
        .where((published) => published.where('pa.status', 'published').orWhere((due) => due.whereNotNull('pa.publish_at').where('pa.publish_at', '<=', at)));
      if ('studentId' in scope) query.where('ph.student_id', scope.studentId);
      else query.where('ph.album_id', scope.albumId);
      const rows = (await query
        .orderBy([{ column: 'o.created_at' }, { column: 'o.id' }, { column: 'i.id' }])
        .select('o.id as order_id', 'i.photo_id', 'i.student_id', 'i.kind', 'pbo.batch_id')) as SoldLineRow[];
      return rows.map(toSoldLine);
    },

    /** The batches' packing list and labels changed now (they show it, docs/statuses.md, "Print batches"). */
    async markBatchesChanged(batchIds: readonly number[], at: number, tx: Tx): Promise<void> {
      if (batchIds.length === 0) return;
      await inTx(tx)('print_batches').whereIn('id', [...batchIds]).update({ documents_changed_at: at });
    },
  };
}
export type SoldPhotoRepository = ReturnType<typeof createSoldPhotoRepository>;
