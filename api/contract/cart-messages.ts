/** The payment result, the order summary and the cart checked against the school's products: user-facing texts in the product's exact words (docs/architecture.md, "One contract, shared"). Apart from payment-messages.ts so a parent's first screen (How It Works names the payment methods) never downloads these. */
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
