/** My Orders (/customer/orders): each order's fields, status badges, download links for paid digital copies. */
import { useEffect } from 'react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { formatDate } from '@contract/format';
import { formatPula } from '@contract/money';
import type { Order } from '@contract/orders';
import { Button, buttonClass } from '../../components/ui/button';
import { Card, CardBody } from '../../components/ui/card';
import { PageSpinner } from '../../components/ui/spinner';
import { customerOrdersQuery } from '../../features/orders/api';
import { OrderItems } from '../../features/orders/order-items';
import { OrderStatusBadge, PaymentStatusBadge, words } from '../../features/orders/status-badges';
import { ApiError } from '../../lib/api-client';
import { clearCustomerSession } from '../../lib/storage';
import { useSession } from '../../lib/session';
import { useTitle } from '../../lib/use-title';
import { paths } from '../../lib/paths';


export default function CustomerOrders() {
  useTitle('My Orders');
  const { customerToken, customerUser } = useSession();
  if (!customerToken || !customerUser) return <Navigate to={paths.customerAuth} replace />;
  return <OrdersScreen firstName={customerUser.firstName} lastName={customerUser.lastName} />;
}

function OrdersScreen({ firstName, lastName }: { firstName: string; lastName: string }) {
  const navigate = useNavigate();
  const orders = useQuery(customerOrdersQuery());
  const expired = orders.error instanceof ApiError && orders.error.status === 401;

  const logout = () => {
    clearCustomerSession();
    navigate(paths.customerAuth);
  };

  // An expired session is a signed-out session: back to sign in.
  useEffect(() => {
    if (expired) {
      clearCustomerSession();
      navigate(paths.customerAuth, { replace: true });
    }
  }, [expired, navigate]);

  return (
    <div className="container page page-medium">
      <div className="row between" style={{ marginBottom: 'var(--space-6)' }}>
        <div>
          <h1 style={{ marginBottom: 'var(--space-1)' }}>My Orders</h1>
          <p className="muted" style={{ margin: 0 }}>
            Welcome, {firstName} {lastName}
          </p>
        </div>
        <Button variant="outline" onClick={logout}>
          Logout
        </Button>
      </div>
      {orders.isPending && !orders.isError ? (
        <PageSpinner label="Loading your orders..." />
      ) : !orders.data ? (
        <p className="alert alert-danger" role="alert">
          We could not load your orders. Check your connection and try again.
        </p>
      ) : orders.data.length === 0 ? (
        <Card>
          <CardBody className="center">
            <h2>No Orders Yet</h2>
            <p className="muted">You haven't placed any orders yet. Start browsing photos to make your first order!</p>
            <Link to={paths.home} className={buttonClass('primary')}>
              Browse Photos
            </Link>
          </CardBody>
        </Card>
      ) : (
        <div className="stack">
          {orders.data.map((order) => (
            <OrderCard key={order.id} order={order} />
          ))}
        </div>
      )}
    </div>
  );
}

function OrderCard({ order }: { order: Order }) {
  // 'N photo(s)' counts the order's item lines, not the copies ordered.
  const count = order.items.length;
  return (
    <Card>
      <CardBody>
        <div className="row between">
          <div>
            <h2 style={{ marginBottom: 0 }}>Order #{order.id}</h2>
            <p className="muted" style={{ margin: 0 }}>
              {formatDate(order.createdAt, 'long')}
            </p>
          </div>
          <div className="row">
            <OrderStatusBadge status={order.status} />
            <PaymentStatusBadge status={order.paymentStatus} />
          </div>
        </div>
        <div className="grid grid-2" style={{ marginTop: 'var(--space-4)' }}>
          <section aria-label="Customer information">
            <h3>Customer Information</h3>
            <dl className="details" style={{ marginTop: 0 }}>
              <dt>Name</dt>
              <dd>{order.customerName}</dd>
              <dt>Email</dt>
              <dd>{order.customerEmail}</dd>
              <dt>Student</dt>
              <dd>{order.studentName}</dd>
              {order.customerPhone ? (
                <>
                  <dt>Phone</dt>
                  <dd>{order.customerPhone}</dd>
                </>
              ) : null}
            </dl>
          </section>
          <section aria-label="Order summary">
            <h3>Order Summary</h3>
            <dl className="details" style={{ marginTop: 0 }}>
              <dt>Items</dt>
              <dd>{count} photo(s)</dd>
              <dt>Total</dt>
              <dd>{formatPula(order.totalAmount)}</dd>
              <dt>Payment</dt>
              <dd>{words(order.paymentStatus)}</dd>
              <dt>School</dt>
              <dd>{order.school.name}</dd>
            </dl>
          </section>
        </div>
        <h3>Items</h3>
        <OrderItems items={order.items} />
      </CardBody>
    </Card>
  );
}
