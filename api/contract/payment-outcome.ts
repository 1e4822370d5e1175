/**
 * PayGate's TRANSACTION_STATUS and its one reading (docs/payments.md, "Transaction statuses"),
 * shared by the API (notify, query, sandbox) and the PWA (the return page's query string).
 */

export const TRANSACTION_STATUS = {
  notDone: 0,
  approved: 1,
  declined: 2,
  cancelled: 3,
  userCancelled: 4,
  received: 5,
  settlementVoided: 7,
} as const;

/** What a TRANSACTION_STATUS means; a number PayGate does not document is `unknown`. */
export type TransactionOutcome = 'approved' | 'declined' | 'cancelled' | 'voided' | 'notDone' | 'received' | 'unknown';

/**
 * The one reading of TRANSACTION_STATUS: 1 approved, 2 declined, 3 and 4 cancelled (both mean the
 * customer cancelled: PayGate's documentation and its own plugins disagree), 7 settlement voided,
 * 0 not done and 5 received (neither is final).
 */
export function transactionOutcome(status: number): TransactionOutcome {
  switch (status) {
    case TRANSACTION_STATUS.approved:
      return 'approved';
    case TRANSACTION_STATUS.declined:
      return 'declined';
    case TRANSACTION_STATUS.cancelled:
    case TRANSACTION_STATUS.userCancelled:
      return 'cancelled';
    case TRANSACTION_STATUS.settlementVoided:
      return 'voided';
    case TRANSACTION_STATUS.notDone:
      return 'notDone';
    case TRANSACTION_STATUS.received:
      return 'received';
    default:
      return 'unknown';
  }
}
