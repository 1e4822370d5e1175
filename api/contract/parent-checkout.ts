/**
 * The parent's cart, checkout and unpaid orders: texts added after messages.ts was closed to new
 * entries (docs/packages-and-coupons.md "A coupon stays with the cart", docs/payments.md "Paying by
 * bank transfer", "Offline"). Imports nothing, so the entry can use it without weight.
 */
export const PARENT_CHECKOUT_MSG = {
  /** A kept coupon the server no longer accepts for this cart: why it was taken off. */
  couponRemoved: (code: string, reason: string) => `Coupon ${code} was removed: ${reason}`,
  /** A package line's size, its contents counted ("3 items"), as in order management. */
  packageItems: (count: number) => (count === 1 ? '1 item' : `${count} items`),
  /** My Orders: the payment row of a cancelled order that was never paid. */
  notPaidCancelled: 'Not paid (order cancelled)',
  /** A bank transfer waiting for the money: the shop's account, from configuration. */
  bankDetailsTitle: 'Pay into this account',
  bankAccountName: 'Account name',
  bankName: 'Bank',
  bankAccountNumber: 'Account number',
  bankBranchCode: 'Branch code',
  /** No account configured: the bank details are the ones PayGate's page showed. */
  bankDetailsOnGateway: "Use the bank details shown on PayGate's payment page.",
} as const;
