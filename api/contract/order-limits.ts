/**
 * What keeps a stranger from using up a coupon or flooding an inbox with orders nobody pays
 * (docs/packages-and-coupons.md, "Holds that lapse", and docs/access.md, "Placing orders"): the
 * limits and the texts a parent meets.
 */

/** Orders one client (its address and its gallery grant) may place in ORDER_LIMIT_WINDOW_SECONDS; the next is 429. */
export const ORDER_LIMIT_PER_CLIENT = 10;
export const ORDER_LIMIT_WINDOW_SECONDS = 10 * 60;

/** "Set your password" e-mails one inbox (see inboxKey on the server) may get per day from accounts made at checkout. */
export const SET_PASSWORD_MAILS_PER_DAY = 3;

/** Placing orders too fast from one device. */
export const ORDER_LIMIT_MSG = {
  tooManyOrders: 'Too many orders from this device in a short time. Please wait a few minutes before placing another.',
} as const;

/** Paying an order whose coupon use lapsed while it waited unpaid. */
export const COUPON_HOLD_MSG = {
  lapsedUsedUp: 'This order was not paid in time, and its coupon has been used up since. Please place the order again.',
  lapsedAlreadyUsed: 'This order was not paid in time, and its coupon has since been used for this family. Please place the order again.',
} as const;
