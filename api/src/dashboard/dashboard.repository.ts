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

    /** Integer thebe; SUM is null over no rows and a DECIMAL string on MySQL. */
    async revenueThebe(paymentStatus: string): Promise<number> {
      return count(await knex('orders').where({ payment_status: paymentStatus }).sum({ total: 'total_thebe' }).first(), 'total');
    },
  };
}
