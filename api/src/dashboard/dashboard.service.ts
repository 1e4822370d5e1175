import { ACTIVE_ORDER_STATUSES } from '../../contract/constants';
import type { DashboardStats } from '../../contract/dashboard';
import { thebeToDecimal } from '../../contract/money';
import type { Deps } from '../deps';
import { createDashboardRepository } from './dashboard.repository';

export function createDashboardService(deps: Pick<Deps, 'knex'>) {
  const repo = createDashboardRepository(deps.knex);
  return {
    /** Revenue counts only completed payments, as the order page does (docs/money-and-pricing.md, "Revenue and counts"). */
    async stats(): Promise<DashboardStats> {
      const [totalPhotos, activeOrders, revenue, totalSchools, packages] = await Promise.all([
        repo.photoCount(),
        repo.orderCount(ACTIVE_ORDER_STATUSES),
        repo.revenueThebe('completed'),
        repo.schoolCount(),
        repo.packagesWaiting(),
      ]);
      return { totalPhotos, activeOrders, totalRevenue: thebeToDecimal(revenue), totalSchools, packagesWaitingForPhotos: packages.waiting, packagesWithoutPhoto: packages.withoutPhoto };
    },
  };
}
