/** Payment methods, the payment result, the order summary and the cart checked against the school's products: user-facing texts in the product's exact words (docs/architecture.md, "One contract, shared"). */
/** Payment methods (issue 23, docs/payments.md "Payment methods"): the checkout's choice, the awaiting state, staff flags. */
export const PAYMENT_METHOD_MSG = {
  methods: {
    card: { label: 'Card', description: 'Visa, Mastercard or American Express' },
    ewallet: { label: 'Mobile money (e-wallet)', description: 'Pay from your mobile money wallet and confirm on your phone' },
    bank_transfer: { label: 'Bank transfer', description: 'Pay from your bank; your order is confirmed when the money arrives (up to a few days)' },
  },
  chooseTitle: 'How would you like to pay?',
  methodNotEnabled: 'This payment method is not available. Please choose another one.',
  /** The confirmation page while a slow method has not settled yet. */
  awaitingTitle: 'Awaiting payment confirmation',
  awaitingBankTransfer: (reference: string, deadline: string) =>
    `Pay by bank transfer using the reference ${reference} by ${deadline}. We will e-mail you as soon as the money arrives; you can close this page.`,
  awaitingGeneric: 'PayGate has received your payment and is waiting for it to be confirmed. This page updates by itself.',
  awaitingEwallet: 'Confirm the payment on your phone. We will e-mail you as soon as it is confirmed; you can close this page.',
  /** Staff: an approval after a bank transfer expired (the money is recorded, the order flagged). */
  paidAfterExpiry: 'Paid after expiry: check',
  paidAfterExpiryHelp:
    'The bank transfer was confirmed after its deadline had passed. The money is recorded; check the order (prices, products, whether the parent paid again) before sending it to the lab.',
  /** The one e-mail when an unconfirmed bank transfer expires. */
  expiredEmailSubject: (orderId: string) => `Your payment for order ${orderId} has expired`,
  expiredEmailBody: (orderId: string, days: number) =>
    `We did not receive your bank transfer for order ${orderId} within ${days} days, so the payment has expired and the order is not paid. You can pay again with the link below.`,
  expiredEmailAction: 'Pay again',
  /** CSV export: the new last column (the spec's columns keep their order). */
  csvColumn: 'Payment Method',
  /** Staff order management: "Chosen: Bank transfer · Gateway: BT (SID)". */
  staffChosen: 'Chosen',
  staffReported: 'Gateway',
  notChosen: 'Not chosen',
  /** Staff order detail: the term before "Bank transfer · Gateway: BT (SID)". */
  staffTerm: 'Payment method',
  /** The confirmation page and My Orders while a bank transfer waits: what to quote and by when. */
  awaitingReference: 'Reference',
  awaitingDeadline: 'Pay by',
  awaitingBankTransferOpen: (reference: string) =>
    `Pay by bank transfer using the reference ${reference}. We will e-mail you as soon as the money arrives; you can close this page.`,
  /**
   * My Orders while a payment waits: paying another way is offered one step further, since both
   * payments may then arrive (docs/payments.md, "Switching method").
   */
  payAnotherWay: 'Pay another way',
  payAnotherWayHelp: 'Changed your mind? You can pay another way instead, but only if you have not paid this way: if both payments arrive, one is refunded.',
  /**
   * How the how-it-works page and the checkout name the enabled methods (one list, from
   * `GET /api/payment/methods`): "by card (…), mobile money (e-wallet) or bank transfer". The card
   * keeps the spec's wording of the how-it-works page ("Visa, Mastercard and American Express").
   */
  names: {
    card: 'card (Visa, Mastercard and American Express)',
    ewallet: 'mobile money (e-wallet)',
    bank_transfer: 'bank transfer',
  },
  /** Under the checkout form: "You will pay by bank transfer on PayGate's secure page. …" */
  checkoutNote: (payBy: string) => `You will pay ${payBy ? `${payBy} ` : ''}on PayGate's secure page. Orders are delivered to the school.`,
  payBy: (names: readonly string[]) =>
    names.length === 0 ? '' : `by ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`}`,
} as const;

/** The payment result page: its heading and words for each state of the order's payment. */
export const PAYMENT_RESULT_MSG = {
  successful: { title: 'Payment Successful', text: 'Thank you! Your payment was received and your order is confirmed. Prints are delivered to the school.' },
  pending: { title: 'Payment Pending', text: 'We are waiting for PayGate to confirm your payment. This page updates by itself.' },
  declined: { title: 'Payment Declined', text: 'Your card was declined and you have not been charged. You can try again with another card.' },
  cancelled: { title: 'Payment Cancelled', text: 'The payment was cancelled and you have not been charged.' },
  insufficient_funds: { title: 'Insufficient Funds', text: 'The card has insufficient funds and you have not been charged. You can try again with another card.' },
  failed: { title: 'Payment Failed', text: 'The payment did not go through and you have not been charged. Please try again.' },
  orderCancelled: { title: 'Order Cancelled', text: 'This order was cancelled, so it is not confirmed. If a payment for it went through, it will be refunded.' },
} as const;

/** The confirmation page for a reader who only has the order's id (docs/access.md, "Reading an order"). */
export const ORDER_SUMMARY_MSG = {
  paidNote: 'Prints are delivered to the school. Digital copies can be downloaded from My Orders.',
  signInForDetails: 'Sign in to see this order\'s photos, details and downloads. They are shown only to the account that placed it, or in the browser it was placed from.',
} as const;

/** The checkout's cart checked against the school's current products (docs/money-and-pricing.md#cart-price-mismatch). */
export const CART_MSG = {
  checkingPrices: 'Checking the current prices...',
  pricesChangedTitle: 'Prices have changed',
  pricesChangedIntro: 'Some prices changed since you added these photos. Your cart now shows the new prices:',
  priceChange: (product: string, from: string, to: string) => `${product}: ${from} → ${to}`,
  acceptNewPrices: 'Accept New Prices',
  acceptBeforeOrdering: 'Accept the new prices to place your order.',
  productGone: 'No longer available for this school',
  printClosed: 'Print ordering has closed: only digital copies can be ordered',
  unpaidOrder: (id: string) => `Order #${id} for these photos has not been paid yet. Pay it now, or change your cart and place a new order: Order #${id} is then cancelled.`,
  payUnpaid: (id: string) => `Pay Order #${id}`,
  cancelOrder: 'Cancel Order',
  keepOrder: 'Keep Order',
  cancelConfirmTitle: (id: string) => `Cancel Order #${id}?`,
  cancelConfirmCart: 'Nothing has been charged for this order. Your photos stay in your cart.',
  cancelConfirmOrders: 'Nothing has been charged for this order. It is removed from My Orders.',
  orderCancelledTitle: 'Order Cancelled',
  orderCancelled: (id: string) => `Order #${id} was cancelled. Nothing was charged.`,
  alreadyPaidTitle: 'Already Paid',
  alreadyPaid: (id: string) => `Order #${id} is already paid.`,
  payNow: 'Pay Now',
  photosAndProducts: (photos: number, products: number) =>
    `${photos} ${photos === 1 ? 'photo' : 'photos'}, ${products} ${products === 1 ? 'product' : 'products'}`,
  awaitingPayment: 'Awaiting payment',
  removeUnavailable: (count: number) =>
    `${count === 1 ? 'An item in your cart is' : `${count} items in your cart are`} no longer sold. Remove ${count === 1 ? 'it' : 'them'} to place your order.`,
  /** The priced summary from the server's quote (docs/packages-and-coupons.md, "The order of discounts"). */
  subtotal: 'Subtotal',
  total: 'Total',
  quoteLoading: 'Working out your total...',
  quoteFailed: 'We could not check your total with the school just now. The server checks it again when you place your order.',
  quantityOfPackage: (name: string) => `Quantity of ${name}`,
  removePackage: (name: string) => `Remove ${name}`,
} as const;
