import { PAYMENT_METHOD_MSG, PAYMENT_RESULT_MSG } from '@contract/messages';
import type { AwaitingPayment } from '@contract/orders';
import { transactionOutcome, type TransactionOutcome } from '@contract/payment-outcome';
/**
 * The payment result (docs/payments.md): the gateway's return parameters read as
 * TRANSACTION_STATUS 1 success, 2 declined, 3 or 4 cancelled, RESULT_CODE 900001 or 900003
 * insufficient funds, 5 received (not final: a method that settles later), anything else failed;
 * the order itself decides success, pending and awaiting confirmation.
 */
export type GatewayOutcome = 'success' | 'received' | 'declined' | 'cancelled' | 'insufficient_funds' | 'failed';
export type ConfirmationState = 'successful' | 'pending' | 'awaiting' | 'orderCancelled' | Exclude<GatewayOutcome, 'success' | 'received'>;

const INSUFFICIENT_FUNDS_CODES = new Set(['900001', '900003']);

const GATEWAY_OUTCOMES: Readonly<Record<TransactionOutcome, GatewayOutcome>> = {
  approved: 'success',
  declined: 'declined',
  cancelled: 'cancelled',
  voided: 'failed',
  notDone: 'failed',
  received: 'received',
  unknown: 'failed',
};

export function readGatewayOutcome(transactionStatus: string | null, resultCode: string | null): GatewayOutcome | null {
  const status = transactionStatus?.trim() ?? '';
  const code = resultCode?.trim() ?? '';
  if (status === '' && code === '') return null;
  if (INSUFFICIENT_FUNDS_CODES.has(code)) return 'insufficient_funds';
  return GATEWAY_OUTCOMES[/^\d+$/.test(status) ? transactionOutcome(Number(status)) : 'unknown'];
}

/** A failure the gateway's return reports; success and "received" are not final, the order decides. */
const failure = (gateway: GatewayOutcome | null): Exclude<GatewayOutcome, 'success' | 'received'> | null =>
  gateway && gateway !== 'success' && gateway !== 'received' ? gateway : null;

export function confirmationState(
  order: { paymentStatus: string; orderStatus: string; awaitingPayment?: AwaitingPayment | null },
  gateway: GatewayOutcome | null,
): ConfirmationState {
  // Success is completed + paid; an order the studio has moved on since stays paid.
  if (order.paymentStatus === 'completed' && order.orderStatus !== 'pending' && order.orderStatus !== 'cancelled') return 'successful';
  if (order.paymentStatus === 'failed') return failure(gateway) ?? 'failed';
  // Cancelled (by staff, say) while the parent was paying: nothing is confirmed, and nothing to wait for
  // (a payment approved after cancellation is refunded, docs/payments.md, "Paid after cancellation").
  if (order.orderStatus === 'cancelled' && !failure(gateway)) return 'orderCancelled';
  // Received by the gateway, settled later (a bank transfer, mobile money): the parent has
  // something to do, and the page keeps asking (docs/payments.md, "The confirmation page").
  if (order.paymentStatus === 'pending' && order.orderStatus !== 'cancelled' && order.awaitingPayment) return 'awaiting';
  // Pending: the gateway's word on a failure is shown at once; a success waits for the server.
  return failure(gateway) ?? 'pending';
}

export const CONFIRMATION_TEXT: Readonly<Record<ConfirmationState, { title: string; text: string }>> = {
  ...PAYMENT_RESULT_MSG,
  awaiting: { title: PAYMENT_METHOD_MSG.awaitingTitle, text: PAYMENT_METHOD_MSG.awaitingGeneric },
};
