/**
 * The cart or checkout opened without a connection (docs/payments.md, "Offline"). A file of its own:
 * the entry's offline cart (pwa/src/app/checkout-route.tsx) uses only these words.
 */
export const OFFLINE_CART_MSG = {
  title: 'You are offline',
  cart: 'Your cart is saved on this device. Paying needs a connection: place your order when you are back online.',
  /** The lines' own sum, shown when the server's quote (discounts, coupon) cannot be had. */
  total: 'Total before any discount',
} as const;

