import { formatPula } from '@contract/money';
import { Card, CardBody } from '../../../components/ui/card';
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
  return (
    <ul className="grid grid-4 stat-cards" aria-label="Statistics">
      {cards.map((card) => (
        <li key={card.label}>
          <Card>
            <CardBody>
              <p className="stat-label">{card.label}</p>
              <p className="stat-value">{card.value}</p>
            </CardBody>
          </Card>
        </li>
      ))}
    </ul>
  );
}
