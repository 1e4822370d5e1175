/** Payment methods (the payment result, the order summary and the cart are in cart-messages.ts): user-facing texts in the product's exact words (docs/architecture.md, "One contract, shared"). */
import { PAYMENT_METHOD_NAMES, payByNames } from './first-visit-messages';
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
  /** How the how-it-works page and the checkout name the enabled methods (first-visit-messages.ts). */
  names: PAYMENT_METHOD_NAMES,
  /** Under the checkout form: "You will pay by bank transfer on PayGate's secure page. …" */
  checkoutNote: (payBy: string) => `You will pay ${payBy ? `${payBy} ` : ''}on PayGate's secure page. Orders are delivered to the school.`,
  payBy: payByNames,
} as const;
