/** My Orders (/customer/orders): each order's fields, status badges, download links for paid digital copies. */
import { Suspense, lazy, useEffect, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CART_MSG, HARDENING_MSG, ORDER_MSG, PAYMENT_METHOD_MSG, PWA_MSG } from '@contract/messages';
import { formatDate } from '@contract/format';
import { formatPula } from '@contract/money';
import type { Order, OrderPackage } from '@contract/orders';
import { Button, buttonClass } from '../../components/ui/button';
import { Card, CardBody } from '../../components/ui/card';
import { PageSpinner } from '../../components/ui/spinner';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { toast } from '../../components/ui/toast';
import { initiatePayment } from '../../features/checkout/api';
import { INVALID_PAYMENT_RESPONSE, nextGatewayStep, postToGateway } from '../../features/checkout/redirect-to-gateway';
import { PaymentMethodChoice, isMethodNotEnabled, usePaymentMethodChoice } from '../../features/checkout/payment-method-choice';
import { AwaitingPaymentDetails, awaitingText } from '../../features/orders/awaiting-payment';
import { cancelOrder, customerOrdersQuery, orderKeys } from '../../features/orders/api';
import { OrderDiscounts, OrderItems } from '../../features/orders/order-items';
import { mayChoosePhotos } from '../../features/orders/prepaid';
import { orderEntries } from '@contract/order-lines';
import { OrderBadges, showsPaymentBadge, words } from '../../features/orders/status-badges';
import { PARENT_CHECKOUT_MSG } from '@contract/parent-checkout';
import { ApiError, errorMessage } from '../../lib/api-client';
import { forgetUnpaidOrder, readUnpaidOrders } from '../../lib/unpaid-order';
import { clearCustomerSession } from '../../lib/storage';
import { useSession } from '../../lib/session';
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

/** An order that is not paid and not cancelled: its customer may pay it or cancel it. */
const awaitsPayment = (order: Order) => order.status === 'pending' && order.paymentStatus !== 'completed';
/**
 * A payment received by the gateway and settled later (docs/payments.md, "Payments that settle
 * later"): what to do is shown first; paying another way is one deliberate step further, since both
 * payments may arrive (docs/payments.md, "Switching method").
 */
const awaitsConfirmation = (order: Order) => awaitsPayment(order) && order.paymentStatus === 'pending' && order.awaitingPayment !== null;

function OrderCard({ order }: { order: Order }) {
  // Photos are the distinct photos; products are the lines, a package counting its contents
  // (copies are each line's quantity).
  const photos = new Set(order.items.map((item) => item.photoId ?? `line-${item.id}`)).size;
  const lines = orderEntries(order).reduce((sum, entry) => sum + (entry.kind === 'package' ? Math.max(1, entry.contents.length) : 1), 0);
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<'paying' | 'cancelling' | null>(null);
  const [confirming, setConfirming] = useState(false);
  // Paying again starts from the method this order's latest payment was begun with.
  const choice = usePaymentMethodChoice(order.paymentMethod);
  const awaiting = awaitsConfirmation(order) ? order.awaitingPayment : null;
  const [otherWay, setOtherWay] = useState(false);
  const offerPayment = awaitsPayment(order) && (!awaiting || otherWay);

  const payNow = async () => {
    setBusy('paying');
    try {
      const next = nextGatewayStep(await initiatePayment(order, choice.method));
      if (next.kind === 'post') return postToGateway(next.processUrl, next.fields);
      if (next.kind === 'redirect') return window.location.assign(next.url);
      toast({ title: PWA_MSG.paymentSetupFailedTitle, description: next.kind === 'failed' ? (next.error ?? ORDER_MSG.paymentUnavailable) : INVALID_PAYMENT_RESPONSE, variant: 'destructive' });
    } catch (err) {
      if (isMethodNotEnabled(err)) {
        await choice.refused();
        setBusy(null);
        return;
      }
      toast({ title: PWA_MSG.paymentSetupFailedTitle, description: errorMessage(err, PWA_MSG.paymentInitFailed), variant: 'destructive' });
      // Paid or cancelled meanwhile: the list says so.
      void queryClient.invalidateQueries({ queryKey: orderKeys.mine });
    }
    setBusy(null);
  };

  const cancel = async () => {
    setBusy('cancelling');
    try {
      await cancelOrder(order.id, readUnpaidOrders().find((entry) => entry.orderId === order.id)?.key ?? null);
      forgetUnpaidOrder(order.id);
      toast({ title: CART_MSG.orderCancelledTitle, description: CART_MSG.orderCancelled(order.id), variant: 'success' });
    } catch (err) {
      toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, PWA_MSG.updateFailedTitle), variant: 'destructive' });
    }
    setConfirming(false);
    setBusy(null);
    await queryClient.invalidateQueries({ queryKey: orderKeys.mine });
  };

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
          <OrderBadges status={order.status} paymentStatus={order.paymentStatus} />
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
              <dd>{CART_MSG.photosAndProducts(photos, lines)}</dd>
              <dt>Total</dt>
              <dd>{formatPula(order.totalAmount)}</dd>
              <dt>Payment</dt>
              <dd>{awaiting ? PAYMENT_METHOD_MSG.awaitingTitle : showsPaymentBadge(order.status, order.paymentStatus) ? words(order.paymentStatus) : PARENT_CHECKOUT_MSG.notPaidCancelled}</dd>
              <dt>School</dt>
              <dd>{order.school.name}</dd>
            </dl>
          </section>
        </div>
        {order.paidAfterCancel > 0 ? (
          <p className="alert alert-info" role="status">
            {HARDENING_MSG.paidAfterCancelFamily}
          </p>
        ) : null}
        <h3>Items</h3>
        <OrderItems order={order} packageAction={(pkg) => choosePhotos(order, pkg)} />
        <OrderDiscounts order={order} withTotal />
        {awaiting ? (
          <div className="alert alert-info" role="status" style={{ marginTop: 'var(--space-4)' }}>
            <strong>{PAYMENT_METHOD_MSG.awaitingTitle}</strong>
            <p style={{ margin: 0 }}>{awaitingText(awaiting)}</p>
            <AwaitingPaymentDetails awaiting={awaiting} />
            <p style={{ margin: 'var(--space-2) 0 0' }}>{PAYMENT_METHOD_MSG.payAnotherWayHelp}</p>
          </div>
        ) : null}
        {offerPayment ? (
          <div style={{ marginTop: 'var(--space-4)' }}>
            <PaymentMethodChoice choice={choice} disabled={busy !== null} />
          </div>
        ) : null}
        {awaitsPayment(order) ? (
          <div className="row" style={{ marginTop: 'var(--space-4)' }}>
            {offerPayment ? (
              <Button onClick={() => void payNow()} disabled={busy !== null}>
                {busy === 'paying' ? PWA_MSG.working : CART_MSG.payNow}
              </Button>
            ) : (
              <Button variant="outline" onClick={() => setOtherWay(true)} disabled={busy !== null}>
                {PAYMENT_METHOD_MSG.payAnotherWay}
              </Button>
            )}
            <Button variant="outline" onClick={() => setConfirming(true)} disabled={busy !== null}>
              {CART_MSG.cancelOrder}
            </Button>
          </div>
        ) : null}
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title={CART_MSG.cancelConfirmTitle(order.id)}
          description={CART_MSG.cancelConfirmOrders}
          confirmLabel={CART_MSG.cancelOrder}
          cancelLabel={CART_MSG.keepOrder}
          busy={busy === 'cancelling'}
          onConfirm={() => void cancel()}
        />
      </CardBody>
    </Card>
  );
}
