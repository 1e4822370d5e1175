import { formatDate } from '@contract/format';
import { Link } from 'react-router-dom';
import { formatPula } from '@contract/money';
import { Badge } from '../../../components/ui/badge';
import { Card, CardBody } from '../../../components/ui/card';
import { PageSpinner } from '../../../components/ui/spinner';
import { paths } from '../../../lib/paths';
import { useOrders } from '../api/orders';
import { STATUS_TONE, statusWords } from '../common/status';

const RECENT = 10;

export function RecentOrders() {
  const orders = useOrders({ status: 'all', school: 'all' });
  if (orders.isPending) return <PageSpinner label="Loading orders..." />;
  if (orders.isError) return <p className="alert alert-danger">Orders could not be loaded.</p>;
  const recent = orders.data.slice(0, RECENT);
  return (
    <Card>
      <CardBody className="stack">
        <div className="row between">
          <h2>Recent Orders</h2>
          <Link to={paths.orderManagement}>Manage all orders</Link>
        </div>
        {recent.length === 0 ? (
          <p className="muted">No orders yet.</p>
        ) : (
          <ul className="staff-list">
            {recent.map((order) => (
              <li key={order.id} className="row between">
                <div>
                  <strong>Order #{order.id}</strong>
                  <div className="muted">
                    {order.customerName} · {order.school.name} · {formatDate(order.createdAt, 'short')}
                  </div>
                </div>
                <div className="row">
                  {order.testPayment ? <Badge tone="purple">Test order</Badge> : null}
                  <Badge tone={STATUS_TONE[order.orderStatus]}>{statusWords(order.orderStatus)}</Badge>
                  <strong>{formatPula(order.totalAmount)}</strong>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}
