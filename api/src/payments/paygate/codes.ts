/** PayWeb3 code tables (docs/payments.md, "Transaction statuses" and "Result codes") shared by the client, the sandbox and the payments service. */

import { TRANSACTION_STATUS, transactionOutcome, type TransactionOutcome } from '../../../contract/payment-outcome';

/** TRANSACTION_STATUS and its one reading live in the contract, shared with the PWA. */
export { TRANSACTION_STATUS, transactionOutcome, type TransactionOutcome };

export const RESULT_CODES = {
  authDone: '990017',
  insufficientFunds: '900003',
  invalidCardNumber: '900004',
  declined: '900007',
  bankNotAvailable: '990022',
  cancelled: '990028',
} as const;

export const RESULT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  [RESULT_CODES.authDone]: 'Auth Done',
  [RESULT_CODES.insufficientFunds]: 'Insufficient Funds',
  [RESULT_CODES.invalidCardNumber]: 'Invalid Card Number',
  [RESULT_CODES.declined]: 'Declined',
  [RESULT_CODES.bankNotAvailable]: 'Bank not available',
  [RESULT_CODES.cancelled]: 'Transaction cancelled',
};

export function isCancelledStatus(status: number): boolean {
  return transactionOutcome(status) === 'cancelled';
}

/** Statuses after which PayGate sends nothing further for the transaction. */
export function isFinalStatus(status: number): boolean {
  return status !== TRANSACTION_STATUS.notDone && status !== TRANSACTION_STATUS.received;
}

export type TestCardOutcome = 'approved' | 'insufficient_funds' | 'declined' | 'unprocessed';

export interface TestCard {
  number: string;
  brand: string;
  outcome: TestCardOutcome;
  riskIndicator: string;
}

/** PayGate's documented test cards (docs/payments.md); any other number is an invalid card. */
export const TEST_CARDS: readonly TestCard[] = [
  { number: '4000000000000002', brand: 'Visa', outcome: 'approved', riskIndicator: 'AX' },
  { number: '5200000000000015', brand: 'MasterCard', outcome: 'approved', riskIndicator: 'AX' },
  { number: '378282246310005', brand: 'American Express', outcome: 'approved', riskIndicator: 'NX' },
  { number: '5200000000000023', brand: 'MasterCard', outcome: 'insufficient_funds', riskIndicator: 'NX' },
  { number: '4000000000000028', brand: 'Visa', outcome: 'insufficient_funds', riskIndicator: 'NX' },
  { number: '371449635398431', brand: 'American Express', outcome: 'insufficient_funds', riskIndicator: 'NX' },
  { number: '4000000000000036', brand: 'Visa', outcome: 'declined', riskIndicator: 'AX' },
  { number: '5200000000000049', brand: 'MasterCard', outcome: 'declined', riskIndicator: 'AX' },
  { number: '30569309025904', brand: 'Diners Club', outcome: 'declined', riskIndicator: 'XX' },
  { number: '5200000000000064', brand: 'MasterCard', outcome: 'unprocessed', riskIndicator: 'XX' },
];

export const APPROVED_TEST_CARD = '4000000000000002';

export const TEST_CARD_OUTCOMES: Readonly<Record<TestCardOutcome, { status: number; resultCode: string; label: string }>> = {
  approved: { status: TRANSACTION_STATUS.approved, resultCode: RESULT_CODES.authDone, label: 'Approved' },
  insufficient_funds: {
    status: TRANSACTION_STATUS.declined,
    resultCode: RESULT_CODES.insufficientFunds,
    label: 'Insufficient funds',
  },
  declined: { status: TRANSACTION_STATUS.declined, resultCode: RESULT_CODES.declined, label: 'Declined' },
  unprocessed: { status: TRANSACTION_STATUS.notDone, resultCode: RESULT_CODES.bankNotAvailable, label: 'Unprocessed' },
};

/** The public test credentials; production must refuse them (docs/payments.md, "Test credentials in production"). */
export const PUBLIC_TEST_PAYGATE_ID = '10011072130';
export const PUBLIC_TEST_SECRET = 'secret';

export const PAYGATE_LIVE_URL = 'https://secure.paygate.co.za';
