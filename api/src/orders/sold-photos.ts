import { SOLD_PHOTO_MSG } from '../../contract/withdrawn-photos';
import type { Tx } from '../db/database';
import { now } from '../db/knex';
import { AppError } from '../http/errors';
import type { SoldPhotoRepository } from './sold-photos.repository';

/** What staff are about to do to the photos: give them to a child (null: a group photo), or withhold them (the tray, a card). */
export type PhotoChange = { to: 'student'; studentId: number | null } | { to: 'withheld' };

/**
 * Moving a sold photo warns first (docs/access.md, "Moving a sold photo"). When a family paid for
 * one of the photos and the change takes it from them (another child, the tray, a card), the change
 * is refused with 409 `PHOTO_SOLD` naming the orders and the print batches that already have it for
 * the lab, unless staff confirmed; confirmed, those batches' packing lists and labels are marked
 * as changed. Call it inside the transaction that makes the change, before it.
 */
export async function guardSoldPhotos(repo: SoldPhotoRepository, photoIds: readonly number[], change: PhotoChange, confirmed: boolean, tx: Tx): Promise<void> {
  const lines = (await repo.soldLines(photoIds, tx)).filter((line) => change.to === 'withheld' || line.lineStudentId !== change.studentId);
  if (lines.length === 0) return;
  const orders = [...new Set(lines.map((line) => line.orderId))];
  const batches = [...new Set(lines.flatMap((line) => (line.batchId === null ? [] : [line.batchId])))].sort((a, b) => a - b);
  if (!confirmed) {
    const sold = [...new Set(lines.map((line) => line.photoId))].sort((a, b) => a - b);
    throw new AppError(409, SOLD_PHOTO_MSG.warning(orders, batches), 'PHOTO_SOLD', undefined, undefined, { orders, batches, photoIds: sold });
  }
  await repo.markBatchesChanged(batches, now(), tx);
}
