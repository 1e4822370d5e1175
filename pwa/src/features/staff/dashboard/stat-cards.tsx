import { formatPula } from '@contract/money';
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
  ];
  return <StatCardList cards={cards} label="Statistics" className="grid grid-4 stat-cards" />;
}
