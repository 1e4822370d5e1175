/**
 * Checkout: summary with Remove, the contact form, then order -> payment. The order POST carries an
 * Idempotency-Key kept with the cart, the cart is cleared only once the order exists, and offline
 * the parent is told so while the cart stays.
 */
import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { CART_MSG, COUPON_MSG, HARDENING_MSG, ORDER_MSG, PACKAGE_MSG, PAYMENT_METHOD_MSG, PWA_MSG } from '@contract/messages';
import { formatPula } from '@contract/money';
import type { Order, OrderSummary } from '@contract/orders';
import { Button, buttonClass } from '../../components/ui/button';
import { Card, CardBody } from '../../components/ui/card';
import { toast } from '../../components/ui/toast';
import { createOrder, initiatePayment, linesTotalThebe, orderBody, quoteBody, quoteOrder, type CheckoutDetails } from '../../features/checkout/api';
import { OrderTotals } from '../../features/checkout/order-totals';
import { packageProducts, stalePackageLines } from '../../features/gallery/packages';
import { CheckoutForm } from '../../features/checkout/checkout-form';
import { PaymentMethodChoice, isMethodNotEnabled, usePaymentMethodChoice } from '../../features/checkout/payment-method-choice';
import { CartLines } from '../../components/cart-lines';
import { checkoutKey, forgetCheckoutKey } from '../../features/checkout/idempotency';
import { INVALID_PAYMENT_RESPONSE, nextGatewayStep, postToGateway } from '../../features/checkout/redirect-to-gateway';
import { priceListsQuery } from '../../features/gallery/api';
import { cancelOrder, orderQuery } from '../../features/orders/api';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { cartSignature, forgetUnpaidOrder, rememberUnpaidOrder, settlePaidOrder, unpaidOrderFor, type UnpaidOrder } from '../../lib/unpaid-order';
import { productsFor } from '../../features/gallery/products';
import { ApiError, NetworkError, errorMessage } from '../../lib/api-client';
import { dispatchCart, readCart, toThebe, useCart, withQuantity } from '../../lib/cart';
import { mergeChanges, repriceLines, type PriceChange, type Repriced, type Unavailable } from '../../lib/reprice';
import { buildCheckoutCart, groupBySchool, readCheckoutCart, studentNamesOf } from '../../lib/checkout-cart';
import { LOCAL_KEYS, readJson, type NamedRef } from '../../lib/storage';
import { useSession } from '../../lib/session';
import { useOnline } from '../../lib/use-online';
import { useTitle } from '../../lib/use-title';
import { paths } from '../../lib/paths';
import { payByPhrase } from '../../lib/payment-methods';
import { saveCartCoupon, useCartCoupon } from '../../lib/cart-coupon';
import { OFFLINE_CART_MSG } from '@contract/offline-cart';
import { PARENT_CHECKOUT_MSG } from '@contract/parent-checkout';

type Step = 'idle' | 'ordering' | 'paying' | 'redirecting' | 'payment-failed';

/** A refusal of the coupon itself (docs/packages-and-coupons.md, "Coupons"): its text belongs at the coupon field. */
const isCouponRefusal = (err: unknown): err is ApiError => err instanceof ApiError && (err.code ?? '').startsWith('COUPON_');

/** Offline: the cart stays, paying waits for a connection (the same words as the route's offline cart). */
const OFFLINE_TEXT = `${OFFLINE_CART_MSG.title}. ${OFFLINE_CART_MSG.cart}`;

export default function Checkout() {
  useTitle('Checkout');
  const cart = useCart();
  const online = useOnline();
  const { customerUser } = useSession();
  const [step, setStep] = useState<Step>('idle');
  const [order, setOrder] = useState<Order | OrderSummary | null>(null);
  const [offlineNotice, setOfflineNotice] = useState(false);
  const [accountCreatedFor, setAccountCreatedFor] = useState<string | null>(null);
  const navigate = useNavigate();
  const [cancelling, setCancelling] = useState(false);
  const [cancelBusy, setCancelBusy] = useState(false);
  // Redraws after the unpaid order's record changes (it lives in local storage).
  const [, setRecordVersion] = useState(0);
  const choice = usePaymentMethodChoice();

  // Back from the card page: a page restored from the back-forward cache is still "redirecting".
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      setOrder(null);
      setStep('idle');
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  const snapshot = readCheckoutCart();
  const school = readJson<NamedRef>(LOCAL_KEYS.currentSchool);
  const groups = groupBySchool(cart, { id: snapshot?.schoolId || school?.id || 0, name: snapshot?.schoolName || school?.name || '' });
  // One school at a time: this order is the first school's; the others wait in the cart.
  const [current, ...later] = groups;
  const lines = current?.lines ?? [];
  const schoolId = current?.schoolId ?? 0;
  const schoolName = current?.schoolName ?? '';
  const unpaid = schoolId ? unpaidOrderFor(schoolId) : null;

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
      const result = repriceLines(ofSchool, [...productsFor(lists), ...packageProducts(lists)], closedNow);
      for (const id of stalePackageLines(ofSchool, lists)) result.unavailable.set(id, 'gone');
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
  const notes = new Map(
    [...unavailable].map(([id, why]) => [id, why === 'closed' ? (lines.find((line) => line.id === id)?.package ? PACKAGE_MSG.printsClosed : CART_MSG.printClosed) : CART_MSG.productGone]),
  );
  const unavailableCount = lines.filter((line) => unavailable.has(line.id)).length;

  // The server's pricing of this cart and coupon (POST /api/orders/quote), asked again whenever
  // either changes; the order's totalAmount is its total. The coupon is kept with the cart
  // (lib/cart-coupon.ts), so it is here again after a reload, the gallery or a spell offline.
  const coupon = useCartCoupon(schoolId);
  const setCoupon = useCallback((code: string | null) => saveCartCoupon(schoolId, code), [schoolId]);
  const [couponError, setCouponError] = useState<string | null>(null);
  const quoteRequest = quoteBody(schoolId, lines, coupon);
  const quoteKey = ['orders', 'quote', quoteRequest] as const;
  const quote = useQuery({
    queryKey: quoteKey,
    queryFn: ({ signal }) => quoteOrder(quoteRequest, signal),
    enabled: schoolId !== 0 && lines.length > 0 && online && !order,
    retry: false,
    staleTime: 0,
    gcTime: 0,
    placeholderData: keepPreviousData,
  });
  const currentQuote = quote.data && !quote.isPlaceholderData ? quote.data : null;
  // A coupon that stopped applying (a line removed under its minimum, used up meanwhile) is taken
  // off with the server's reason.
  useEffect(() => {
    if (coupon !== null && isCouponRefusal(quote.error)) {
      setCouponError(PARENT_CHECKOUT_MSG.couponRemoved(coupon, quote.error.serverMessage ?? quote.error.message));
      setCoupon(null);
    }
  }, [coupon, quote.error, setCoupon]);
  const applyCoupon = async (code: string) => {
    try {
      await queryClient.fetchQuery({ queryKey: ['orders', 'quote', quoteBody(schoolId, lines, code)], queryFn: ({ signal }) => quoteOrder(quoteBody(schoolId, lines, code), signal), retry: false, staleTime: 0 });
      setCouponError(null);
      setCoupon(code);
    } catch (err) {
      setCouponError(err instanceof ApiError ? (err.serverMessage ?? err.message) : errorMessage(err, CART_MSG.quoteFailed));
    }
  };
  // Placing the order waits for the quote of exactly this cart (a stale total would be refused).
  const quotePending = quote.isFetching || (quote.isPlaceholderData && !quote.isError);
  const signatureOf = (ofLines: readonly typeof lines[number][]) => cartSignature(ofLines) + (coupon ? `|coupon:${coupon}` : '');

  const pay = async (created: Order | OrderSummary) => {
    setStep('paying');
    try {
      const next = nextGatewayStep(await initiatePayment(created, choice.method));
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
      if (isMethodNotEnabled(err)) await choice.refused();
      else if (err instanceof ApiError) toast({ title: PWA_MSG.paymentSetupFailedTitle, description: err.serverMessage ?? ORDER_MSG.paymentUnavailable, variant: 'destructive' });
      else toast({ title: PWA_MSG.paymentErrorTitle, description: PWA_MSG.paymentInitFailed, variant: 'destructive' });
    }
    setStep('payment-failed');
  };

  /**
   * The unpaid order again: paid meanwhile, it is settled; cancelled, it is forgotten; its payment
   * awaiting confirmation, its page is shown; else to the card page.
   */
  const payUnpaid = async (record: UnpaidOrder): Promise<'paying' | 'gone' | 'awaiting' | 'failed'> => {
    setStep('ordering');
    let existing: Order | OrderSummary;
    try {
      existing = await queryClient.fetchQuery({ ...orderQuery(record.orderId), staleTime: 0 });
    } catch (err) {
      setStep('idle');
      toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, PWA_MSG.paymentInitFailed), variant: 'destructive' });
      return 'failed';
    }
    if (existing.paymentStatus === 'completed') {
      settlePaidOrder(existing.id);
      toast({ title: CART_MSG.alreadyPaidTitle, description: CART_MSG.alreadyPaid(existing.id), variant: 'success' });
      navigate(paths.orderConfirmation(existing.id));
      return 'gone';
    }
    // A payment that settles later is on its way (docs/payments.md, "Payments that settle later"):
    // its page says what to do; a second payment is not started beside it.
    if (existing.awaitingPayment && existing.status !== 'cancelled') {
      setStep('idle');
      navigate(paths.orderConfirmation(existing.id));
      return 'awaiting';
    }
    if (existing.status === 'cancelled') {
      forgetUnpaidOrder(existing.id);
      setRecordVersion((v) => v + 1);
      setStep('idle');
      return 'gone';
    }
    setOrder(existing);
    await pay(existing);
    return 'paying';
  };

  /** Cancels the unpaid order this browser placed; false when it turned out to be paid. */
  const cancelUnpaid = async (record: UnpaidOrder, quiet: boolean): Promise<boolean> => {
    try {
      await cancelOrder(record.orderId, record.key);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'ALREADY_PAID') {
        settlePaidOrder(record.orderId);
        toast({ title: CART_MSG.alreadyPaidTitle, description: CART_MSG.alreadyPaid(record.orderId), variant: 'success' });
        navigate(paths.orderConfirmation(record.orderId));
        return false;
      }
      // Placed on another device, or no answer: it stays unpaid in My Orders, where it can be cancelled.
      if (!quiet) {
        toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, PWA_MSG.createOrderFailed), variant: 'destructive' });
        return false;
      }
    }
    forgetUnpaidOrder(record.orderId);
    setRecordVersion((v) => v + 1);
    if (!quiet) toast({ title: CART_MSG.orderCancelledTitle, description: CART_MSG.orderCancelled(record.orderId), variant: 'success' });
    return true;
  };

  /** Whether the unpaid order's payment was received and awaits confirmation (false when it cannot be told). */
  const awaitsConfirmation = async (record: UnpaidOrder): Promise<boolean> => {
    try {
      const existing = await queryClient.fetchQuery({ ...orderQuery(record.orderId), staleTime: 0 });
      return existing.status !== 'cancelled' && existing.paymentStatus === 'pending' && existing.awaitingPayment !== null;
    } catch {
      return false;
    }
  };

  const sameAsUnpaid = (record: UnpaidOrder, details: CheckoutDetails) =>
    record.signature === signatureOf(lines) && JSON.stringify(record.details) === JSON.stringify(details);

  const placeOrder = async (details: CheckoutDetails) => {
    if (!navigator.onLine) {
      setOfflineNotice(true);
      toast({ title: PWA_MSG.offlineTitle, description: OFFLINE_TEXT, variant: 'destructive' });
      return;
    }
    setOfflineNotice(false);
    // The same cart and details as the unpaid order: that order is paid, not a second one placed.
    if (unpaid && sameAsUnpaid(unpaid, details)) {
      if ((await payUnpaid(unpaid)) !== 'gone') return;
    } else if (unpaid && (await awaitsConfirmation(unpaid))) {
      // Its money may be on its way (a bank transfer made, a wallet asked): never cancelled to make
      // room. The changed cart becomes a new order beside it; My Orders shows both.
      forgetUnpaidOrder(unpaid.orderId);
    } else if (unpaid && !(await cancelUnpaid(unpaid, true))) {
      return;
    }
    setStep('ordering');
    let created: Order;
    let usedKey: string;
    try {
      const body = orderBody(schoolId, lines, details, { couponCode: coupon, total: currentQuote?.total ?? null });
      let answer: Awaited<ReturnType<typeof createOrder>>;
      usedKey = await checkoutKey();
      try {
        answer = await createOrder(body, usedKey);
      } catch (err) {
        // The key was used for this cart with other details (the parent corrected them): a new order.
        if (!(err instanceof ApiError && err.code === 'IDEMPOTENCY_KEY_REUSED')) throw err;
        await forgetCheckoutKey();
        usedKey = await checkoutKey();
        answer = await createOrder(body, usedKey);
      }
      created = answer.order;
      setAccountCreatedFor(answer.customerCreated ? created.customerEmail : null);
      if (answer.customerCreated) {
        toast({ title: HARDENING_MSG.accountCreatedTitle, description: HARDENING_MSG.accountCreated(created.customerEmail), variant: 'success' });
      }
    } catch (err) {
      setStep('idle');
      if (isCouponRefusal(err)) {
        // Used up or used by this family since it was applied: taken off, with the reason at the field.
        setCouponError(coupon ? PARENT_CHECKOUT_MSG.couponRemoved(coupon, err.serverMessage ?? err.message) : (err.serverMessage ?? err.message));
        setCoupon(null);
      }
      if (err instanceof ApiError && err.status === 409 && ['PRICE_MISMATCH', 'PRODUCT_UNAVAILABLE', 'PACKAGE_UNAVAILABLE', 'PRINTS_CLOSED'].includes(err.code ?? '')) {
        const closedNow = closed || err.code === 'PRINTS_CLOSED';
        setClosed(closedNow);
        // The discounts may have changed as well as the prices: the summary is asked for again.
        void quote.refetch();
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
    // The cart keeps its lines until the order is paid (the confirmation page settles it): back
    // from the card page or after a declined card, nothing has to be chosen again.
    rememberUnpaidOrder({ orderId: created.id, schoolId, lineIds: lines.map((line) => line.id), signature: signatureOf(lines), key: usedKey, details });
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
                <PaymentMethodChoice choice={choice} />
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
                  {PWA_MSG.otherSchoolsWait(
                    groups.length,
                    schoolName || 'the first school',
                    later.map((group) => PWA_MSG.schoolItems(group.schoolName || 'Another school', group.lines.length)).join(', '),
                  )}
                </p>
              ) : null}
              {unpaid && step === 'idle' ? (
                <div className="alert alert-info" role="status">
                  <p style={{ marginTop: 0 }}>{CART_MSG.unpaidOrder(unpaid.orderId)}</p>
                  <div className="row">
                    <Button size="sm" onClick={() => void payUnpaid(unpaid)}>
                      {CART_MSG.payUnpaid(unpaid.orderId)}
                    </Button>
                    <Button size="sm" variant="outline" onClick={() => setCancelling(true)}>
                      {CART_MSG.cancelOrder}
                    </Button>
                  </div>
                </div>
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
              <CartLines
                lines={lines}
                hideTotal
                onRemove={remove}
                disabled={step !== 'idle'}
                notes={notes}
                onQuantity={(id, quantity) => {
                  const line = lines.find((candidate) => candidate.id === id);
                  if (!line) return;
                  dispatchCart({ type: 'update', lines: [withQuantity(line, quantity)] });
                  buildCheckoutCart();
                }}
              />
              <OrderTotals
                quote={currentQuote}
                loading={quote.isFetching}
                failed={quote.isError && !isCouponRefusal(quote.error)}
                linesTotalThebe={linesTotalThebe(lines)}
                coupon={coupon}
                couponError={couponError}
                onApply={applyCoupon}
                onRemove={() => {
                  setCoupon(null);
                  setCouponError(null);
                  toast({ title: COUPON_MSG.removed, variant: 'success' });
                }}
                disabled={step !== 'idle'}
              />
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
                initial={
                  unpaid
                    ? { ...unpaid.details, customerPhone: unpaid.details.customerPhone ?? '', notes: unpaid.details.notes ?? '' }
                    : {
                        ...(customerUser ? { customerName: `${customerUser.firstName} ${customerUser.lastName}`.trim(), customerEmail: customerUser.email } : {}),
                        studentName: studentNamesOf(lines),
                      }
                }
                busy={step !== 'idle'}
                busyLabel={step === 'ordering' ? 'Placing order...' : 'Starting payment...'}
                disabled={schoolId === 0 || changes.length > 0 || unavailableCount > 0 || quotePending}
                onSubmit={(details) => void placeOrder(details)}
                beforeSubmit={<PaymentMethodChoice choice={choice} disabled={step !== 'idle'} />}
              />
              <p className="muted" style={{ fontSize: '0.875rem', marginTop: 'var(--space-3)' }}>
                {PAYMENT_METHOD_MSG.checkoutNote(payByPhrase(choice.methods.filter((method) => method.id === choice.method)))}
              </p>
            </CardBody>
          </Card>
        </div>
      )}
      {unpaid ? (
        <ConfirmDialog
          open={cancelling}
          onOpenChange={setCancelling}
          title={CART_MSG.cancelConfirmTitle(unpaid.orderId)}
          description={CART_MSG.cancelConfirmCart}
          confirmLabel={CART_MSG.cancelOrder}
          cancelLabel={CART_MSG.keepOrder}
          busy={cancelBusy}
          onConfirm={() => {
            setCancelBusy(true);
            void cancelUnpaid(unpaid, false).finally(() => {
              setCancelBusy(false);
              setCancelling(false);
            });
          }}
        />
      ) : null}
    </div>
  );
}
