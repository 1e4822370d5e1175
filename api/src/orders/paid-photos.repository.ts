import type { Knex } from 'knex';
import { inTx, runner, type Tx } from '../db/database';
import { whereMayStillBePaid } from '../payments/payments.repository';

const ID_CHUNK = 500;

/** Which photos to look at: some photos, or every photo of a class. */
export type PhotoScope = { photoIds: readonly number[] } | { albumId: number };

/** When the holding rules are judged: now, and the oldest order whose download links still work. */
export interface HoldingClock {
  at: number;
  linksSince: number;
}

interface LockedLine {
  id: string;
  payment_status: string;
  order_status: string;
  created_at: number | string;
  payment_claimed_until: number | string | null;
  kind: string;
}

/**
 * The orders whose lines need the originals of these photos (docs/access.md, "Photos that orders
 * need"), read and locked inside the deleting transaction so no payment is confirmed between the
 * check and the delete:
 *
 * - paid and not cancelled, and either not delivered yet, or with a digital line whose download
 *   link still works (placed after `linksSince`);
 * - unpaid and not cancelled, with a payment that may still be approved (`whereMayStillBePaid`:
 *   opened or received within a day, or a received bank transfer before its deadline) or being
 *   opened right now (the order's initiation claim): it may be paid any moment.
 *
 * On MySQL the order lines, their orders and photos are read with FOR UPDATE; confirming a payment
 * and claiming an initiation both write the order's row, so they wait for the delete to commit (and
 * then find the lines gone). This locking read must be the transaction's first statement: the
 * payments are read after it with a plain read, whose snapshot then includes every payment
 * committed before the lock. SQLite runs one transaction at a time on its single connection.
 * Order ids, sorted.
 */
export function createPaidPhotoRepository(knex: Knex) {
  async function lockLines(scope: PhotoScope, tx: Tx): Promise<LockedLine[]> {
    const db = inTx(tx);
    const query = db('order_items as i')
      .join('orders as o', 'o.id', 'i.order_id')
      .join('photos as p', 'p.id', 'i.photo_id')
      .whereNot('o.order_status', 'cancelled')
      .select('o.id', 'o.payment_status', 'o.order_status', 'o.created_at', 'o.payment_claimed_until', 'i.kind');
    if ('albumId' in scope) query.where('p.album_id', scope.albumId);
    else query.whereIn('p.id', [...scope.photoIds]);
    if (db.client.config.client === 'mysql2') query.forUpdate();
    return (await query) as LockedLine[];
  }

  return {
    async lockOrdersHolding(scope: PhotoScope, clock: HoldingClock, tx: Tx): Promise<string[]> {
      const lines: LockedLine[] = [];
      if ('albumId' in scope) lines.push(...(await lockLines(scope, tx)));
      // A long list of photos is asked in chunks (SQLite caps the parameters of one statement).
      else for (let at = 0; at < scope.photoIds.length; at += ID_CHUNK) lines.push(...(await lockLines({ photoIds: scope.photoIds.slice(at, at + ID_CHUNK) }, tx)));

      const holding = new Set<string>();
      const unpaid = new Set<string>();
      for (const line of lines) {
        if (line.payment_status === 'completed') {
          const linkLives = line.kind === 'digital' && Number(line.created_at) > clock.linksSince;
          if (line.order_status !== 'delivered' || linkLives) holding.add(line.id);
        } else if (line.payment_claimed_until !== null && Number(line.payment_claimed_until) >= clock.at) {
          holding.add(line.id);
        } else {
          unpaid.add(line.id);
        }
      }
      const candidates = [...unpaid];
      for (let at = 0; at < candidates.length; at += ID_CHUNK) {
        const rows = (await runner(knex, tx)('payments')
          .whereIn('order_id', candidates.slice(at, at + ID_CHUNK))
          .modify((query) => whereMayStillBePaid(query, clock.at))
          .distinct('order_id')) as { order_id: string }[];
        for (const row of rows) holding.add(row.order_id);
      }
      return [...holding].sort();
    },
  };
}
export type PaidPhotoRepository = ReturnType<typeof createPaidPhotoRepository>;
