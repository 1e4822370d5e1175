import type { Knex } from 'knex';
import { count } from '../db/knex';

export function createDashboardRepository(knex: Knex) {
  const total = async (table: string) => count(await knex(table).count({ count: '*' }).first());
  return {
    photoCount: () => total('photos'),
    schoolCount: () => total('schools'),

    async orderCount(statuses: readonly string[]): Promise<number> {
      return count(await knex('orders').whereIn('order_status', [...statuses]).count({ count: '*' }).first());
    },

    /**
     * Paid prepaid package lines nobody has chosen photos for (docs/prepaid.md), and those of them
     * flagged at the closing date because the child had no photo.
     */
    async packagesWaiting(): Promise<{ waiting: number; withoutPhoto: number }> {
      const row = (await knex('order_packages as op')
        .join('orders as o', 'o.id', 'op.order_id')
        .where('op.prepaid', true)
        .whereNull('op.poses_chosen_by')
        .where('o.payment_status', 'completed')
        .whereNot('o.order_status', 'cancelled')
        .count({ waiting: '*' })
        .select(knex.raw('sum(case when op.no_photo_at is null then 0 else 1 end) as without_photo'))
        .first()) as Record<string, unknown> | undefined;
      return { waiting: Number(row?.waiting ?? 0), withoutPhoto: Number(row?.without_photo ?? 0) };
    },

    /** Integer thebe; SUM is null over no rows and a DECIMAL string on MySQL. */
    async revenueThebe(paymentStatus: string): Promise<number> {
      return count(await knex('orders').where({ payment_status: paymentStatus }).sum({ total: 'total_thebe' }).first(), 'total');
    },
  };
}
