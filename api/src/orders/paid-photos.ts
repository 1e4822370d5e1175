import { KEEP_PAID_MSG } from '../../contract/messages';
import type { Tx } from '../db/database';
import { AppError } from '../http/errors';
import { DOWNLOAD_TTL_SECONDS } from './downloads';
import type { PaidPhotoRepository, PhotoScope } from './paid-photos.repository';

/** At most this many orders are named in the refusal; the rest are counted. */
const NAMED_ORDERS = 10;

/**
 * Deleting never destroys what was paid for (docs/access.md, "Photos that orders need"): deleting
 * a class, deleting photos or cleaning up missing ones is refused with 409 `PHOTOS_IN_ORDERS`,
 * naming the orders, while a paid order that is not delivered, a digital copy whose download link
 * still works (the link lives DOWNLOAD_TTL_SECONDS from the order), or an order whose payment is
 * open at the gateway needs those originals. Staff archive the class instead.
 *
 * Call it first thing in the transaction that deletes: it locks those orders until the delete
 * commits, so no payment is confirmed or opened in between.
 */
export async function assertNoOrderNeeds(repo: PaidPhotoRepository, scope: PhotoScope, tx: Tx, at: number = Date.now()): Promise<void> {
  const orders = await repo.lockOrdersHolding(scope, { at, linksSince: at - DOWNLOAD_TTL_SECONDS * 1000 }, tx);
  if (orders.length === 0) return;
  const named = orders.slice(0, NAMED_ORDERS);
  const more = orders.length - named.length;
  const message = KEEP_PAID_MSG.photosNeededByOrders(more > 0 ? [...named, `${more} more`] : named);
  throw new AppError(409, message, 'PHOTOS_IN_ORDERS', undefined, undefined, { orders });
}
