import { randomInt } from 'node:crypto';
import type { FormPairs } from './checksum';
import { RESULT_CODES, RESULT_DESCRIPTIONS, TEST_CARD_OUTCOMES, TEST_CARDS, TRANSACTION_STATUS } from './codes';

/** The PayWeb3 `PAY_METHOD` codes the sandbox's merchant account can carry (docs/payments.md, "The built-in sandbox"). */
export type SandboxPayMethod = 'CC' | 'EW' | 'BT';

/** What every non-card notify carries as AUTH_CODE, as PayGate's do (docs/payments.md, "Test wallets and transfers"). */
export const NON_CARD_AUTH_CODE = '999999';
/** RESULT_DESC of the provisional answer (status 5) of a payment that settles later; its RESULT_CODE is empty. */
export const RECEIVED_DESC = 'Received by PayGate';
/** The e-wallets the sandbox offers when the initiate named none (docs/payments.md, "Test wallets and transfers"). */
export const SANDBOX_WALLETS: readonly string[] = ['Orange Money', 'MyZaka', 'Smega'];

/** A payment received but not final yet (status 5): how it will end and how it is reported. */
export interface PendingSettlement {
  payMethod: Exclude<SandboxPayMethod, 'CC'>;
  payMethodDetail: string;
  /** The final outcome the timer will send; null: none scheduled (only the settle route ends it). */
  scheduled: 'approve' | 'decline' | null;
}

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
  /** PAY_METHOD / PAY_METHOD_DETAIL from the initiate: the page the parent gets; null lets the parent choose. */
  payMethod: SandboxPayMethod | null;
  payMethodDetail: string | null;
  /** Notify-shaped fields (no CHECKSUM) once the customer paid or cancelled; null before. */
  result: FormPairs | null;
  transactionStatus: number | null;
  /** Kept from the provisional answer (status 5) to the final one: both name the same transaction. */
  transactionId: string | null;
  /** Set while the transaction is received but not final (status 5). */
  pending: PendingSettlement | null;
  notifyAttempts: number;
  notifyAcknowledged: boolean;
}

export interface Outcome {
  status: number;
  /** Empty for the provisional answer (status 5). */
  resultCode: string;
  riskIndicator: string;
  /** PAY_METHOD as the notify reports it; empty on a card page's Cancel (no card was entered). */
  payMethod: SandboxPayMethod | '';
  /** PAY_METHOD_DETAIL: the card brand, the wallet's name, or `SID`. */
  payMethodDetail: string;
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
      payMethod: 'CC',
      payMethodDetail: guessBrand(cardNumber),
      approved: false,
    };
  }
  const { status, resultCode } = TEST_CARD_OUTCOMES[card.outcome];
  return {
    status,
    resultCode,
    riskIndicator: card.riskIndicator,
    payMethod: 'CC',
    payMethodDetail: card.brand,
    approved: card.outcome === 'approved',
  };
}

/**
 * The customer's Cancel. On the card page nothing names a method (PAY_METHOD empty, as before);
 * on the e-wallet and bank-transfer pages the parent had chosen one, so it is reported.
 */
export function cancelOutcome(cancelStatus: 3 | 4, method?: { payMethod: SandboxPayMethod; payMethodDetail: string }): Outcome {
  return {
    status: cancelStatus,
    resultCode: RESULT_CODES.cancelled,
    riskIndicator: 'XX',
    payMethod: method?.payMethod ?? '',
    payMethodDetail: method?.payMethodDetail ?? '',
    approved: false,
  };
}

/** The provisional answer of an e-wallet or bank transfer: status 5, no result code yet. */
export function receivedOutcome(payMethod: Exclude<SandboxPayMethod, 'CC'>, payMethodDetail: string): Outcome {
  return { status: TRANSACTION_STATUS.received, resultCode: '', riskIndicator: 'XX', payMethod, payMethodDetail, approved: false };
}

/** The final answer of an e-wallet or bank transfer: approved (1, Auth Done) or declined (2, Declined). */
export function settledOutcome(payMethod: Exclude<SandboxPayMethod, 'CC'>, payMethodDetail: string, approved: boolean): Outcome {
  return {
    status: approved ? TRANSACTION_STATUS.approved : TRANSACTION_STATUS.declined,
    resultCode: approved ? RESULT_CODES.authDone : RESULT_CODES.declined,
    riskIndicator: 'XX',
    payMethod,
    payMethodDetail,
    approved,
  };
}

/**
 * The notify field set in PayGate's notify order (docs/payments.md, "Notify"). A card's AUTH_CODE is empty unless approved;
 * the caller may post it as the literal `null` while signing it empty, as PayGate does (docs/payments.md, "The null
 * authorisation code"). E-wallet and bank-transfer notifies carry `999999`, whatever their status; a Cancel carries none.
 * The TRANSACTION_ID is made once per request, so the final notify of a payment that settles later repeats it.
 */
export function resultPairs(tx: SandboxTransaction, outcome: Outcome): FormPairs {
  const cancelled = outcome.resultCode === RESULT_CODES.cancelled;
  if (!cancelled && tx.transactionId === null) tx.transactionId = String(randomInt(10_000_000, 100_000_000));
  const authCodeValue = cancelled ? '' : outcome.payMethod === 'CC' ? (outcome.approved ? authCode() : '') : NON_CARD_AUTH_CODE;
  return [
    ['PAYGATE_ID', tx.paygateId],
    ['PAY_REQUEST_ID', tx.payRequestId],
    ['REFERENCE', tx.reference],
    ['TRANSACTION_STATUS', String(outcome.status)],
    ['RESULT_CODE', outcome.resultCode],
    ['AUTH_CODE', authCodeValue],
    ['CURRENCY', tx.currency],
    ['AMOUNT', tx.amount],
    ['RESULT_DESC', outcome.status === TRANSACTION_STATUS.received ? RECEIVED_DESC : (RESULT_DESCRIPTIONS[outcome.resultCode] ?? '')],
    ['TRANSACTION_ID', cancelled ? '' : (tx.transactionId ?? '')],
    ['RISK_INDICATOR', outcome.riskIndicator],
    ['PAY_METHOD', outcome.payMethod],
    ['PAY_METHOD_DETAIL', outcome.payMethodDetail],
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

/**
 * A Botswana mobile number as typed ("71 234 567", "+267 71234567", "0026771234567") → its 8 digits,
 * or null when it is not one: 8 digits starting with 7, after spaces, dashes and the +267/00267 prefix are removed.
 */
export function botswanaMobile(value: string): string | null {
  const compact = value.replace(/[\s-]/g, '');
  const local = compact.replace(/^(?:\+267|00267)/, '');
  return /^7\d{7}$/.test(local) ? local : null;
}
