import { SOLD_PHOTO_MSG, type SoldPhotosOf } from '../../contract/withdrawn-photos';
import type { Tx } from '../db/database';
import { now } from '../db/knex';
import { AppError } from '../http/errors';
import type { SoldLine, SoldPhotoRepository } from './sold-photos.repository';

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
  await warnOrMark(repo, lines, 'photos', confirmed, tx);
}

/**
 * The same warning when a whole child or class is withheld: marking a child do not publish, or
 * putting a published class back to draft, takes from families the photos of it they paid for and
 * still have (lines already withdrawn are not asked about again). Refused with 409 `PHOTO_SOLD`
 * unless staff confirmed; confirmed, the print batches holding those lines are marked as changed.
 * Call it inside the transaction that makes the change, before it.
 */
export async function guardWithholding(repo: SoldPhotoRepository, scope: { studentId: number } | { albumId: number }, confirmed: boolean, tx: Tx): Promise<void> {
  const lines = await repo.deliveredLines(scope, now(), tx);
  await warnOrMark(repo, lines, 'studentId' in scope ? 'child' : 'class', confirmed, tx);
}

async function warnOrMark(repo: SoldPhotoRepository, lines: readonly SoldLine[], of: SoldPhotosOf, confirmed: boolean, tx: Tx): Promise<void> {
  if (lines.length === 0) return;
  const orders = [...new Set(lines.map((line) => line.orderId))];
  const batches = [...new Set(lines.flatMap((line) => (line.batchId === null ? [] : [line.batchId])))].sort((a, b) => a - b);
  if (!confirmed) {
    const sold = [...new Set(lines.map((line) => line.photoId))].sort((a, b) => a - b);
    throw new AppError(409, SOLD_PHOTO_MSG.warning(orders, batches, of), 'PHOTO_SOLD', undefined, undefined, { orders, batches, photoIds: sold });
  }
  await repo.markBatchesChanged(batches, now(), tx);
}
