import { randomInt } from 'node:crypto';
import type { FormPairs } from './checksum';
import { RESULT_CODES, RESULT_DESCRIPTIONS, TEST_CARD_OUTCOMES, TEST_CARDS, TRANSACTION_STATUS } from './codes';

/** What the sandbox keeps per PAY_REQUEST_ID; exposed read-only for tests. */
export interface SandboxTransaction {
  payRequestId: string;
  paygateId: string;
  reference: string;
  /** Integer thebe/cents as posted. */
  amount: string;
  currency: string;
  returnUrl: string;
  notifyUrl: string | null;
  email: string;
  /** USER1..USER3 as sent, echoed in notify and query. */
  userFields: FormPairs;
  createdAt: number;
  /** Notify-shaped fields (no CHECKSUM) once the customer paid or cancelled; null while pending. */
  result: FormPairs | null;
  transactionStatus: number | null;
  notifyAttempts: number;
  notifyAcknowledged: boolean;
}

export interface Outcome {
  status: number;
  resultCode: string;
  riskIndicator: string;
  brand: string;
  approved: boolean;
}

/** Card number → outcome per the documented test cards (docs/payments.md, "Test cards"); any other number is an invalid card. */
export function cardOutcome(cardNumber: string): Outcome {
  const card = TEST_CARDS.find((candidate) => candidate.number === cardNumber);
  if (!card) {
    return {
      status: TRANSACTION_STATUS.declined,
      resultCode: RESULT_CODES.invalidCardNumber,
      riskIndicator: 'XX',
      brand: guessBrand(cardNumber),
      approved: false,
    };
  }
  const { status, resultCode } = TEST_CARD_OUTCOMES[card.outcome];
  return { status, resultCode, riskIndicator: card.riskIndicator, brand: card.brand, approved: card.outcome === 'approved' };
}

export function cancelOutcome(cancelStatus: 3 | 4): Outcome {
  return { status: cancelStatus, resultCode: RESULT_CODES.cancelled, riskIndicator: 'XX', brand: '', approved: false };
}

/**
 * The notify field set in PayGate's notify order (docs/payments.md, "Notify"). AUTH_CODE is empty unless approved; the caller may post
 * it as the literal `null` while signing it empty, as PayGate does (docs/payments.md, "The null authorisation code").
 */
export function resultPairs(tx: SandboxTransaction, outcome: Outcome): FormPairs {
  const cancelled = outcome.resultCode === RESULT_CODES.cancelled;
  return [
    ['PAYGATE_ID', tx.paygateId],
    ['PAY_REQUEST_ID', tx.payRequestId],
    ['REFERENCE', tx.reference],
    ['TRANSACTION_STATUS', String(outcome.status)],
    ['RESULT_CODE', outcome.resultCode],
    ['AUTH_CODE', outcome.approved ? authCode() : ''],
    ['CURRENCY', tx.currency],
    ['AMOUNT', tx.amount],
    ['RESULT_DESC', RESULT_DESCRIPTIONS[outcome.resultCode] ?? ''],
    ['TRANSACTION_ID', cancelled ? '' : String(randomInt(10_000_000, 100_000_000))],
    ['RISK_INDICATOR', outcome.riskIndicator],
    ['PAY_METHOD', cancelled ? '' : 'CC'],
    ['PAY_METHOD_DETAIL', outcome.brand],
    ...tx.userFields,
  ];
}

/**
 * The query answer before the customer has finished: status 0 "Not Done" with an empty RESULT_CODE,
 * AUTH_CODE and TRANSACTION_ID (an assumption: PayGate's pending query is not documented).
 */
export function pendingPairs(tx: SandboxTransaction): FormPairs {
  return [
    ['PAYGATE_ID', tx.paygateId],
    ['PAY_REQUEST_ID', tx.payRequestId],
    ['REFERENCE', tx.reference],
    ['TRANSACTION_STATUS', String(TRANSACTION_STATUS.notDone)],
    ['RESULT_CODE', ''],
    ['AUTH_CODE', ''],
    ['CURRENCY', tx.currency],
    ['AMOUNT', tx.amount],
    ['RESULT_DESC', 'Not Done'],
    ['TRANSACTION_ID', ''],
    ['RISK_INDICATOR', ''],
    ['PAY_METHOD', ''],
    ['PAY_METHOD_DETAIL', ''],
    ...tx.userFields,
  ];
}

const AUTH_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

function authCode(): string {
  return Array.from({ length: 6 }, () => AUTH_ALPHABET[randomInt(AUTH_ALPHABET.length)]).join('');
}

function guessBrand(cardNumber: string): string {
  if (cardNumber.startsWith('4')) return 'Visa';
  if (/^5[1-5]/.test(cardNumber)) return 'MasterCard';
  if (/^3[47]/.test(cardNumber)) return 'American Express';
  return '';
}

/** MM/YY (or MM/YYYY) that is this month or later. */
export function isFutureExpiry(value: string, now: Date): boolean {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return false;
  const [, monthText = '', yearText = ''] = match;
  const month = Number(monthText);
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  if (month < 1 || month > 12) return false;
  return year * 12 + month >= now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}
