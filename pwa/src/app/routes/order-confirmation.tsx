/** Payment result (/order-confirmation/{orderId}): reads the gateway's return parameters and the order. */
import { Suspense, lazy, useEffect } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { formatPula } from '@contract/money';
import { ORDER_SUMMARY_MSG } from '@contract/messages';
import { isOrderSummary, type Order, type OrderPackage } from '@contract/orders';
import { buttonClass } from '../../components/ui/button';
import { Card, CardBody } from '../../components/ui/card';
import { PageSpinner, Spinner } from '../../components/ui/spinner';
import { orderQuery } from '../../features/orders/api';
import { CONFIRMATION_TEXT, confirmationState, readGatewayOutcome } from '../../features/orders/outcome';
import { AwaitingPaymentDetails, awaitingText } from '../../features/orders/awaiting-payment';
import { OrderDiscounts, OrderItems } from '../../features/orders/order-items';
import { mayChoosePhotos } from '../../features/orders/prepaid';
import { restoreCartFrom } from '../../features/orders/restore-cart';
import { OrderBadges } from '../../features/orders/status-badges';
import { ApiError } from '../../lib/api-client';
import { settlePaidOrder } from '../../lib/unpaid-order';
import { useTitle } from '../../lib/use-title';
import { paths } from '../../lib/paths';

/** "Choose your photos" for a package paid before picture day (docs/packages-and-coupons.md): its own chunk, loaded only when an order has one. */
const PrepaidPhotos = lazy(() => import('../prepaid-photos'));
const choosePhotos = (order: Order, pkg: OrderPackage) =>
  mayChoosePhotos(order, pkg) ? (
    <Suspense fallback={null}>
      <PrepaidPhotos order={order} pkg={pkg} />
    </Suspense>
  ) : null;

export default function OrderConfirmation() {
  const { orderId = '' } = useParams();
  const [search] = useSearchParams();
  const order = useQuery(orderQuery(orderId));
  const gateway = readGatewayOutcome(search.get('TRANSACTION_STATUS'), search.get('RESULT_CODE'));
  const payRequestId = search.get('PAY_REQUEST_ID');
  const state = order.data ? confirmationState(order.data, gateway) : null;
  useTitle(state ? CONFIRMATION_TEXT[state].title : 'Order');
  // Paid: the order's lines leave the cart (they stayed there while it was unpaid).
  useEffect(() => {
    if (state === 'successful') settlePaidOrder(orderId);
  }, [state, orderId]);

  if (!order.data && !order.isError) return <PageSpinner label="Loading your order..." />;
  if (!order.data) {
    const missing = order.error instanceof ApiError && (order.error.status === 404 || order.error.status === 400);
    return (
      <div className="container page page-narrow center">
        <h1>{missing ? 'Order Not Found' : 'Order unavailable'}</h1>
        <p className="muted">
          {missing ? `We couldn't find an order with ID #${orderId}.` : 'We could not load this order. Check your connection and reload the page.'}
        </p>
        <Link to={paths.home} className={buttonClass('primary')}>
          Back to Home
        </Link>
      </div>
    );
  }

  const data = order.data;
  // Only the id (another browser, not signed in): statuses and the total, no names, lines or links.
  const full = isOrderSummary(data) ? null : data;
  const text = CONFIRMATION_TEXT[state ?? 'pending'];
  const waiting = state === 'pending' || state === 'awaiting';
  const tone = state === 'successful' ? 'alert-success' : waiting ? 'alert-info' : 'alert-danger';
  const awaiting = state === 'awaiting' ? data.awaitingPayment : null;
  return (
    <div className="container page page-medium">
      <div className={`alert ${tone}`} role="status" aria-live="polite" style={{ marginBottom: 'var(--space-6)' }}>
        <h1 style={{ marginBottom: 'var(--space-2)' }}>{text.title}</h1>
        <p style={{ margin: 0 }}>{awaiting ? awaitingText(awaiting) : text.text}</p>
        {awaiting ? <AwaitingPaymentDetails awaiting={awaiting} /> : null}
        {waiting ? (
          <p style={{ margin: 'var(--space-2) 0 0' }}>
            <Spinner label="Checking payment status" />
          </p>
        ) : null}
      </div>
      {data.testPayment && state === 'successful' ? (
        <p className="alert alert-warn" style={{ marginBottom: 'var(--space-4)' }}>
          Test payment: this order was paid through the PayGate test gateway. No real money was charged.
        </p>
      ) : null}
      <Card>
        <CardBody>
          <div className="row between">
            <h2 style={{ margin: 0 }}>Order #{data.id}</h2>
            <OrderBadges status={data.orderStatus} paymentStatus={data.paymentStatus} />
          </div>
          {full ? (
            <>
              <dl className="details">
                <dt>School</dt>
                <dd>{full.school.name}</dd>
                <dt>Student</dt>
                <dd>{full.studentName}</dd>
                <dt>Name</dt>
                <dd>{full.customerName}</dd>
                <dt>Email</dt>
                <dd>{full.customerEmail}</dd>
                {payRequestId ? (
                  <>
                    <dt>Payment reference</dt>
                    <dd>{payRequestId}</dd>
                  </>
                ) : null}
              </dl>
              <h3>Items</h3>
              <OrderItems order={full} packageAction={(pkg) => choosePhotos(full, pkg)} />
              <OrderDiscounts order={full} />
            </>
          ) : (
            <p className="muted">{ORDER_SUMMARY_MSG.signInForDetails}</p>
          )}
          <div className="total-row">
            <span>Total</span>
            <span>{formatPula(data.totalAmount)}</span>
          </div>
          {state === 'successful' ? (
            <p className="muted">{full ? 'Prints are delivered to the school. Digital copies can be downloaded above and from My Orders.' : ORDER_SUMMARY_MSG.paidNote}</p>
          ) : null}
        </CardBody>
      </Card>
      <div className="row" style={{ marginTop: 'var(--space-6)' }}>
        <Link to={paths.home} className={buttonClass('outline')}>
          Back to Home
        </Link>
        <Link to={paths.customerAuth} className={buttonClass('secondary')}>
          Track Your Orders
        </Link>
        {state !== 'successful' && !waiting && state !== 'orderCancelled' ? (
          // A browser that cannot see the order (a link opened elsewhere, e.g. the expiry e-mail's)
          // has no cart to pay again with: sign in, and My Orders pays the order as placed.
          <Link to={full ? paths.checkout : paths.customerAuth} className={buttonClass('primary')} onClick={() => full && restoreCartFrom(full)}>
            Try Again
          </Link>
        ) : null}
      </div>
    </div>
  );
}
