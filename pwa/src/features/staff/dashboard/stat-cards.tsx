import { formatPula } from '@contract/money';
import { PREPAID_MSG } from '@contract/prepaid';
import { StatCardList } from '../common/stat-card-list';
import { useDashboardStats } from '../api/stats';

export function StatCards() {
  const stats = useDashboardStats();
  const value = (text: string | number | undefined) => (stats.isPending ? '…' : stats.isError ? '—' : text);
  const cards = [
    { label: 'Total Photos', value: value(stats.data?.totalPhotos) },
    { label: 'Active Orders', value: value(stats.data?.activeOrders) },
    { label: 'Revenue', value: value(stats.data ? formatPula(stats.data.totalRevenue) : undefined) },
    { label: 'Schools', value: value(stats.data?.totalSchools) },
    // Packages paid before picture day still without photos, and those flagged at the closing date (docs/prepaid.md).
    ...(stats.data && stats.data.packagesWaitingForPhotos > 0 ? [{ label: PREPAID_MSG.waitingTitle, value: stats.data.packagesWaitingForPhotos }] : []),
    ...(stats.data && stats.data.packagesWithoutPhoto > 0 ? [{ label: PREPAID_MSG.noPhotoAtClosing, value: stats.data.packagesWithoutPhoto }] : []),
  ];
  return <StatCardList cards={cards} label="Statistics" className="grid grid-4 stat-cards" />;
}
