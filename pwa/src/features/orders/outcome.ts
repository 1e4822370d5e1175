import { PAYMENT_RESULT_MSG } from '@contract/messages';
import { transactionOutcome, type TransactionOutcome } from '@contract/payment-outcome';
/**
 * The payment result (docs/payments.md): the gateway's return parameters read as
 * TRANSACTION_STATUS 1 success, 2 declined, 3 or 4 cancelled, RESULT_CODE 900001 or 900003
 * insufficient funds, anything else failed; the order itself decides success and pending.
 */
export type GatewayOutcome = 'success' | 'declined' | 'cancelled' | 'insufficient_funds' | 'failed';
export type ConfirmationState = 'successful' | 'pending' | 'orderCancelled' | Exclude<GatewayOutcome, 'success'>;

const INSUFFICIENT_FUNDS_CODES = new Set(['900001', '900003']);

const GATEWAY_OUTCOMES: Readonly<Record<TransactionOutcome, GatewayOutcome>> = {
  approved: 'success',
  declined: 'declined',
  cancelled: 'cancelled',
  voided: 'failed',
  notDone: 'failed',
  received: 'failed',
  unknown: 'failed',
};

export function readGatewayOutcome(transactionStatus: string | null, resultCode: string | null): GatewayOutcome | null {
  const status = transactionStatus?.trim() ?? '';
  const code = resultCode?.trim() ?? '';
  if (status === '' && code === '') return null;
  if (INSUFFICIENT_FUNDS_CODES.has(code)) return 'insufficient_funds';
  return GATEWAY_OUTCOMES[/^\d+$/.test(status) ? transactionOutcome(Number(status)) : 'unknown'];
}

export function confirmationState(order: { paymentStatus: string; orderStatus: string }, gateway: GatewayOutcome | null): ConfirmationState {
  // Success is completed + paid; an order the studio has moved on since stays paid.
  if (order.paymentStatus === 'completed' && order.orderStatus !== 'pending' && order.orderStatus !== 'cancelled') return 'successful';
  if (order.paymentStatus === 'failed') return gateway && gateway !== 'success' ? gateway : 'failed';
  // Cancelled (by staff, say) while the parent was paying: nothing is confirmed, and nothing to wait for
  // (a payment approved after cancellation is refunded, docs/payments.md, "Paid after cancellation").
  if (order.orderStatus === 'cancelled' && (!gateway || gateway === 'success')) return 'orderCancelled';
  // Pending: the gateway's word on a failure is shown at once; a success waits for the server.
  if (gateway && gateway !== 'success') return gateway;
  return 'pending';
}

export const CONFIRMATION_TEXT: Readonly<Record<ConfirmationState, { title: string; text: string }>> = PAYMENT_RESULT_MSG;
