/**
 * Checkout: summary with Remove, the contact form, then order -> payment. The order POST carries an
 * Idempotency-Key kept with the cart, the cart is cleared only once the order exists, and offline
 * the parent is told so while the cart stays.
 */
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { CART_MSG, HARDENING_MSG, ORDER_MSG, PWA_MSG } from '@contract/messages';
import { formatPula } from '@contract/money';
import type { Order } from '@contract/orders';
import { Button, buttonClass } from '../../components/ui/button';
import { Card, CardBody } from '../../components/ui/card';
import { toast } from '../../components/ui/toast';
import { createOrder, initiatePayment, orderBody, type CheckoutDetails } from '../../features/checkout/api';
import { CheckoutForm } from '../../features/checkout/checkout-form';
import { CartLines } from '../../components/cart-lines';
import { checkoutKey, forgetCheckoutKey } from '../../features/checkout/idempotency';
import { INVALID_PAYMENT_RESPONSE, nextGatewayStep, postToGateway } from '../../features/checkout/redirect-to-gateway';
import { priceListsQuery } from '../../features/gallery/api';
import { productsFor } from '../../features/gallery/products';
import { ApiError, NetworkError, errorMessage } from '../../lib/api-client';
import { clearCartKeys, dispatchCart, readCart, toThebe, useCart } from '../../lib/cart';
import { mergeChanges, repriceLines, type PriceChange, type Repriced, type Unavailable } from '../../lib/reprice';
import { buildCheckoutCart, groupBySchool, readCheckoutCart, studentNamesOf } from '../../lib/checkout-cart';
import { LOCAL_KEYS, readJson, type NamedRef } from '../../lib/storage';
import { useSession } from '../../lib/session';
import { useOnline } from '../../lib/use-online';
import { useTitle } from '../../lib/use-title';
import { paths } from '../../lib/paths';

type Step = 'idle' | 'ordering' | 'paying' | 'redirecting' | 'payment-failed';

const OFFLINE_TEXT = 'You are offline. Your cart is saved on this device; place your order when you are back online.';

export default function Checkout() {
  useTitle('Checkout');
  const cart = useCart();
  const online = useOnline();
  const { customerUser } = useSession();
  const [step, setStep] = useState<Step>('idle');
  const [order, setOrder] = useState<Order | null>(null);
  const [offlineNotice, setOfflineNotice] = useState(false);
  const [accountCreatedFor, setAccountCreatedFor] = useState<string | null>(null);

  const snapshot = readCheckoutCart();
  const school = readJson<NamedRef>(LOCAL_KEYS.currentSchool);
  const groups = groupBySchool(cart, { id: snapshot?.schoolId || school?.id || 0, name: snapshot?.schoolName || school?.name || '' });
  // One school at a time: this order is the first school's; the others wait in the cart.
  const [current, ...later] = groups;
  const lines = current?.lines ?? [];
  const schoolId = current?.schoolId ?? 0;
  const schoolName = current?.schoolName ?? '';

  const remove = (id: string) => {
    dispatchCart({ type: 'remove', id });
    buildCheckoutCart();
    setUnavailable((known) => {
      const next = new Map(known);
      next.delete(id);
      return next;
    });
    setChanges((shown) => shown.filter((change) => change.lineId !== id));
  };

  // The cart is re-priced from the school's current products on load, when back online and after
  // a 409 (docs/money-and-pricing.md#cart-price-mismatch): the parent sees what changed and accepts it.
  const queryClient = useQueryClient();
  const [changes, setChanges] = useState<PriceChange[]>([]);
  const [unavailable, setUnavailable] = useState<ReadonlyMap<string, Unavailable>>(new Map());
  const [closed, setClosed] = useState(false);
  const reprice = useCallback(
    async (closedNow: boolean): Promise<Repriced | null> => {
      if (schoolId === 0) return null;
      const lists = await queryClient.fetchQuery({ ...priceListsQuery(schoolId), staleTime: 0 });
      const ofSchool = readCart().filter((line) => (line.schoolId ?? schoolId) === schoolId);
      const result = repriceLines(ofSchool, productsFor(lists), closedNow);
      if (result.lines.some((line, index) => line !== ofSchool[index])) {
        dispatchCart({ type: 'update', lines: result.lines });
        buildCheckoutCart();
      }
      setChanges((shown) => mergeChanges(shown, result.changes));
      setUnavailable(result.unavailable);
      return result;
    },
    [queryClient, schoolId],
  );
  useEffect(() => {
    if (!online || order) return;
    reprice(closed).catch(() => undefined);
  }, [online, order, closed, reprice]);
  const notes = new Map([...unavailable].map(([id, why]) => [id, why === 'closed' ? CART_MSG.printClosed : CART_MSG.productGone]));
  const unavailableCount = lines.filter((line) => unavailable.has(line.id)).length;

  const pay = async (created: Order) => {
    setStep('paying');
    try {
      const next = nextGatewayStep(await initiatePayment(created));
      if (next.kind === 'post') {
        setStep('redirecting');
        postToGateway(next.processUrl, next.fields);
        return;
      }
      if (next.kind === 'redirect') {
        setStep('redirecting');
        window.location.assign(next.url);
        return;
      }
      if (next.kind === 'failed') toast({ title: PWA_MSG.paymentSetupFailedTitle, description: next.error ?? ORDER_MSG.paymentUnavailable, variant: 'destructive' });
      else toast({ title: PWA_MSG.paymentErrorTitle, description: INVALID_PAYMENT_RESPONSE, variant: 'destructive' });
    } catch (err) {
      if (err instanceof ApiError) toast({ title: PWA_MSG.paymentSetupFailedTitle, description: err.serverMessage ?? ORDER_MSG.paymentUnavailable, variant: 'destructive' });
      else toast({ title: PWA_MSG.paymentErrorTitle, description: PWA_MSG.paymentInitFailed, variant: 'destructive' });
    }
    setStep('payment-failed');
  };

  const placeOrder = async (details: CheckoutDetails) => {
    if (!navigator.onLine) {
      setOfflineNotice(true);
      toast({ title: PWA_MSG.offlineTitle, description: OFFLINE_TEXT, variant: 'destructive' });
      return;
    }
    setOfflineNotice(false);
    setStep('ordering');
    let created: Order;
    try {
      const body = orderBody(schoolId, lines, details);
      let answer: Awaited<ReturnType<typeof createOrder>>;
      try {
        answer = await createOrder(body, await checkoutKey());
      } catch (err) {
        // The key was used for this cart with other details (the parent corrected them): a new order.
        if (!(err instanceof ApiError && err.code === 'IDEMPOTENCY_KEY_REUSED')) throw err;
        await forgetCheckoutKey();
        answer = await createOrder(body, await checkoutKey());
      }
      created = answer.order;
      setAccountCreatedFor(answer.customerCreated ? created.customerEmail : null);
      if (answer.customerCreated) {
        toast({ title: HARDENING_MSG.accountCreatedTitle, description: HARDENING_MSG.accountCreated(created.customerEmail), variant: 'success' });
      }
    } catch (err) {
      setStep('idle');
      if (err instanceof ApiError && err.status === 409 && ['PRICE_MISMATCH', 'PRODUCT_UNAVAILABLE', 'PRINTS_CLOSED'].includes(err.code ?? '')) {
        const closedNow = closed || err.code === 'PRINTS_CLOSED';
        setClosed(closedNow);
        const result = await reprice(closedNow).catch(() => null);
        if (result && (result.changes.length > 0 || result.unavailable.size > 0)) {
          toast({ title: CART_MSG.pricesChangedTitle, description: result.changes.length > 0 ? CART_MSG.acceptBeforeOrdering : CART_MSG.removeUnavailable(result.unavailable.size), variant: 'destructive' });
          return;
        }
      }
      if (err instanceof NetworkError) {
        setOfflineNotice(true);
        toast({ title: PWA_MSG.offlineTitle, description: OFFLINE_TEXT, variant: 'destructive' });
      } else {
        toast({ title: PWA_MSG.orderFailedTitle, description: errorMessage(err, PWA_MSG.createOrderFailed), variant: 'destructive' });
      }
      return;
    }
    setOrder(created);
    if (later.length === 0) clearCartKeys();
    else for (const line of lines) dispatchCart({ type: 'remove', id: line.id });
    await forgetCheckoutKey();
    await pay(created);
  };

  if (order) {
    return (
      <div className="container page page-medium">
        <h1>Complete Your Order</h1>
        <Card>
          <CardBody>
            <h2>Order #{order.id}</h2>
            {accountCreatedFor ? (
              <p className="alert alert-success" role="status">
                {HARDENING_MSG.accountCreated(accountCreatedFor)}
              </p>
            ) : null}
            {step === 'payment-failed' ? (
              <>
                <p className="alert alert-danger" role="alert">
                  Your order has been created, but the payment could not be started. You can try again now.
                </p>
                <div className="row">
                  <Button onClick={() => void pay(order)}>Try Payment Again</Button>
                  <Link to={paths.orderConfirmation(order.id)} className={buttonClass('outline')}>
                    View Order
                  </Link>
                </div>
              </>
            ) : (
              <p role="status">Taking you to PayGate's secure payment page...</p>
            )}
          </CardBody>
        </Card>
      </div>
    );
  }

  return (
    <div className="container page">
      <h1>Complete Your Order</h1>
      {lines.length === 0 ? (
        <Card>
          <CardBody className="center">
            <h2>Your cart is empty</h2>
            <p className="muted">Open your school's gallery to choose photos and products.</p>
            <Link to={paths.home} className={buttonClass('primary')}>
              Browse Photos
            </Link>
          </CardBody>
        </Card>
      ) : (
        <div className="grid grid-2" style={{ alignItems: 'start' }}>
          <Card>
            <CardBody>
              <h2>Order Summary</h2>
              {schoolName ? <p className="muted">{schoolName} · delivered to the school</p> : null}
              {later.length > 0 ? (
                <p className="alert alert-warn" role="status">
                  Your cart has photos from {groups.length} schools. Each school's prints are delivered to that school, so each is a separate order: this order is for{' '}
                  {schoolName || 'the first school'}. {later.map((group) => `${group.schoolName || 'Another school'} (${group.lines.length} item(s))`).join(', ')} stay
                  in your cart for your next order.
                </p>
              ) : null}
              {changes.length > 0 ? (
                <div className="alert alert-warn" role="alert">
                  <p style={{ marginTop: 0 }}>{CART_MSG.pricesChangedIntro}</p>
                  <ul>
                    {changes.map((change) => (
                      <li key={change.lineId}>{CART_MSG.priceChange(change.productName, formatPula(toThebe(change.from), 'thebe'), formatPula(toThebe(change.to), 'thebe'))}</li>
                    ))}
                  </ul>
                  <Button size="sm" onClick={() => setChanges([])}>
                    {CART_MSG.acceptNewPrices}
                  </Button>
                </div>
              ) : null}
              {unavailableCount > 0 ? (
                <p className="alert alert-danger" role="alert">
                  {CART_MSG.removeUnavailable(unavailableCount)}
                </p>
              ) : null}
              <CartLines lines={lines} onRemove={remove} disabled={step !== 'idle'} notes={notes} />
            </CardBody>
          </Card>
          <Card>
            <CardBody>
              <h2>Your Details</h2>
              {customerUser ? null : (
                <p className="muted">
                  Have an account? <Link to={paths.customerAuth}>Sign in</Link> to see this order in My Orders. You can also check out as a guest.
                </p>
              )}
              {!online || offlineNotice ? (
                <p className="alert alert-warn" role="status">
                  {OFFLINE_TEXT}
                </p>
              ) : null}
              {schoolId === 0 ? (
                <p className="alert alert-danger" role="alert">
                  We don't know which school these photos are from. Open your school's gallery again, then come back to checkout.
                </p>
              ) : null}
              {changes.length > 0 ? <p className="muted">{CART_MSG.acceptBeforeOrdering}</p> : null}
              <CheckoutForm
                initial={{
                  ...(customerUser ? { customerName: `${customerUser.firstName} ${customerUser.lastName}`.trim(), customerEmail: customerUser.email } : {}),
                  studentName: studentNamesOf(lines),
                }}
                busy={step !== 'idle'}
                busyLabel={step === 'ordering' ? 'Placing order...' : 'Starting payment...'}
                disabled={schoolId === 0 || changes.length > 0 || unavailableCount > 0}
                onSubmit={(details) => void placeOrder(details)}
              />
              <p className="muted" style={{ fontSize: '0.875rem', marginTop: 'var(--space-3)' }}>
                You will pay by card on PayGate's secure page. Orders are delivered to the school.
              </p>
            </CardBody>
          </Card>
        </div>
      )}
    </div>
  );
}
