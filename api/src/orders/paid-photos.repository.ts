import type { Knex } from 'knex';
import { runner, type Tx } from '../db/database';

const ID_CHUNK = 500;

/** Which photos to look at: some photos, or every photo of a class. */
export type PhotoScope = { photoIds: readonly number[] } | { albumId: number };

/**
 * The orders whose lines need the originals of these photos (docs/access.md, "Photos that orders
 * need"): paid and not cancelled, and either not delivered yet, or with a digital line whose
 * download link still works (placed after `linksSince`). Order ids, sorted.
 */
export function createPaidPhotoRepository(knex: Knex) {
  return {
    async ordersNeeding(scope: PhotoScope, linksSince: number, tx?: Tx): Promise<string[]> {
      // A long list of photos is asked in chunks (SQLite caps the parameters of one statement).
      if ('photoIds' in scope && scope.photoIds.length > ID_CHUNK) {
        const found = new Set<string>();
        for (let at = 0; at < scope.photoIds.length; at += ID_CHUNK) {
          for (const order of await this.ordersNeeding({ photoIds: scope.photoIds.slice(at, at + ID_CHUNK) }, linksSince, tx)) found.add(order);
        }
        return [...found].sort();
      }
      const db = runner(knex, tx);
      const query = db('order_items as i')
        .join('orders as o', 'o.id', 'i.order_id')
        .join('photos as p', 'p.id', 'i.photo_id')
        .where('o.payment_status', 'completed')
        .whereNot('o.order_status', 'cancelled')
        .where((needed) => {
          needed.whereNot('o.order_status', 'delivered').orWhere((link) => link.where('i.kind', 'digital').where('o.created_at', '>', linksSince));
        })
        .distinct('o.id')
        .orderBy('o.id');
      if ('albumId' in scope) query.where('p.album_id', scope.albumId);
      else if (scope.photoIds.length === 0) return [];
      else query.whereIn('p.id', [...scope.photoIds]);
      const rows = (await query) as { id: string }[];
      return rows.map((row) => row.id);
    },
  };
}
export type PaidPhotoRepository = ReturnType<typeof createPaidPhotoRepository>;
