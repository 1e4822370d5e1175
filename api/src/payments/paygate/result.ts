import { z } from 'zod';
import { PayGateError } from './errors';

const digits = z.string().regex(/^\d+$/);
const optionalText = z.string().optional().default('');
/** Blank and PayGate's literal `null` (docs/payments.md, "The null authorisation code") both mean "no value". */
const nullableText = optionalText.transform((value) => (value === '' || value === 'null' ? null : value));

/**
 * The notify and query response field set (docs/payments.md, "Notify" and "Query"). Only the identity, status, amount and
 * currency are required: those are what the order logic compares; the rest is informational.
 */
const resultSchema = z.object({
  PAYGATE_ID: z.string().min(1),
  PAY_REQUEST_ID: z.string().min(1),
  REFERENCE: z.string().min(1),
  TRANSACTION_STATUS: digits.transform(Number),
  RESULT_CODE: optionalText.refine((value) => value === '' || /^\d+$/.test(value)).transform((value) => value || null),
  AUTH_CODE: nullableText,
  CURRENCY: z.string().min(1),
  AMOUNT: digits.transform(Number).refine(Number.isSafeInteger),
  RESULT_DESC: optionalText,
  TRANSACTION_ID: nullableText,
  RISK_INDICATOR: optionalText,
  PAY_METHOD: optionalText,
  PAY_METHOD_DETAIL: optionalText,
  USER1: z.string().optional(),
  USER2: z.string().optional(),
  USER3: z.string().optional(),
  VAULT_ID: z.string().optional(),
});

export interface PayGateResult {
  paygateId: string;
  payRequestId: string;
  reference: string;
  transactionStatus: number;
  /** null while the transaction has not been processed (the sandbox's pending query). */
  resultCode: string | null;
  resultDesc: string;
  authCode: string | null;
  currency: string;
  /** Integer thebe/cents, as posted. */
  amount: number;
  /** Blank on a customer cancel. */
  transactionId: string | null;
  riskIndicator: string;
  payMethod: string;
  payMethodDetail: string;
  user1?: string;
  user2?: string;
  user3?: string;
  vaultId?: string;
}

/**
 * Typed view of a notify or query response. Call it only after the checksum was verified; a
 * repeated field name is rejected because the checksum covers both copies but a map keeps one.
 */
export function parsePayGateResult(pairs: readonly [string, string][]): PayGateResult {
  const names = pairs.map(([name]) => name);
  if (new Set(names).size !== names.length) throw new PayGateError('BAD_RESPONSE', 'PayGate fields repeat a name');
  const parsed = resultSchema.safeParse(Object.fromEntries(pairs));
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.join('.')).join(', ');
    throw new PayGateError('BAD_RESPONSE', `PayGate result has invalid fields: ${fields}`);
  }
  const f = parsed.data;
  return {
    paygateId: f.PAYGATE_ID,
    payRequestId: f.PAY_REQUEST_ID,
    reference: f.REFERENCE,
    transactionStatus: f.TRANSACTION_STATUS,
    resultCode: f.RESULT_CODE,
    resultDesc: f.RESULT_DESC,
    authCode: f.AUTH_CODE,
    currency: f.CURRENCY,
    amount: f.AMOUNT,
    transactionId: f.TRANSACTION_ID,
    riskIndicator: f.RISK_INDICATOR,
    payMethod: f.PAY_METHOD,
    payMethodDetail: f.PAY_METHOD_DETAIL,
    ...(f.USER1 !== undefined && { user1: f.USER1 }),
    ...(f.USER2 !== undefined && { user2: f.USER2 }),
    ...(f.USER3 !== undefined && { user3: f.USER3 }),
    ...(f.VAULT_ID !== undefined && { vaultId: f.VAULT_ID }),
  };
}
