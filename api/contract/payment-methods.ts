import { z } from 'zod';
import { PAYMENT_METHOD_MSG } from './messages';

/**
 * The ways a parent can pay (docs/payments.md, "Payment methods"). Which of them the checkout
 * offers is configuration (`PAYMENT_METHODS`, default `card`): a merchant gets the methods its
 * PayGate account carries. Each maps to the PayWeb3 `PAY_METHOD` (and `PAY_METHOD_DETAIL`) sent
 * at initiation.
 */
export const PAYMENT_METHOD_IDS = ['card', 'ewallet', 'bank_transfer'] as const;
export type PaymentMethodId = (typeof PAYMENT_METHOD_IDS)[number];
export const DEFAULT_PAYMENT_METHODS: readonly PaymentMethodId[] = ['card'];

export interface PaymentMethodDefinition {
  /** PayWeb3 `PAY_METHOD`: CC card, EW e-wallet, BT bank transfer. */
  payMethod: 'CC' | 'EW' | 'BT';
  /** PayWeb3 `PAY_METHOD_DETAIL` sent with it, when the method needs one. */
  payMethodDetail: string | null;
  /**
   * The gateway may answer "received, final result later" (TRANSACTION_STATUS 5) and settle
   * hours or days later by a final notify.
   */
  settlesLater: boolean;
  /** An unconfirmed payment of this method expires after `BANK_TRANSFER_EXPIRY_DAYS`. */
  expires: boolean;
}

export const PAYMENT_METHOD_DEFINITIONS: Record<PaymentMethodId, PaymentMethodDefinition> = {
  card: { payMethod: 'CC', payMethodDetail: null, settlesLater: false, expires: false },
  ewallet: { payMethod: 'EW', payMethodDetail: null, settlesLater: true, expires: false },
  bank_transfer: { payMethod: 'BT', payMethodDetail: 'SID', settlesLater: true, expires: true },
};

/** The method the gateway reports (`PAY_METHOD`) back to ours, for a payment begun without a choice. */
export function paymentMethodForPayMethod(payMethod: string | null | undefined): PaymentMethodId | null {
  const code = (payMethod ?? '').trim().toUpperCase();
  const found = PAYMENT_METHOD_IDS.find((methodId) => PAYMENT_METHOD_DEFINITIONS[methodId].payMethod === code);
  return found ?? null;
}

export const isPaymentMethodId = (value: string): value is PaymentMethodId => (PAYMENT_METHOD_IDS as readonly string[]).includes(value);

/** Reads `PAYMENT_METHODS` ("card,ewallet,bank_transfer"); throws a message naming the unknown ones. */
export function parsePaymentMethods(value: string | undefined): PaymentMethodId[] {
  const names = (value ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (names.length === 0) return [...DEFAULT_PAYMENT_METHODS];
  const unknown = names.filter((name) => !isPaymentMethodId(name));
  if (unknown.length > 0) {
    throw new Error(
      `PAYMENT_METHODS has unknown method${unknown.length === 1 ? '' : 's'} ${unknown.map((name) => `"${name}"`).join(', ')}: use a comma-separated list of ${PAYMENT_METHOD_IDS.join(', ')}`,
    );
  }
  return PAYMENT_METHOD_IDS.filter((methodId) => names.includes(methodId));
}

export const paymentMethodIdSchema = z.enum(PAYMENT_METHOD_IDS, {
  error: `Payment method must be one of ${PAYMENT_METHOD_IDS.join(', ')}`,
});

/**
 * The shop's bank account for a bank transfer (BANK_ACCOUNT_NAME, BANK_NAME, BANK_ACCOUNT_NUMBER,
 * BANK_BRANCH_CODE; docs/payments.md, "Paying by bank transfer"): shown on the shop's own page while
 * a transfer is awaited, beside the reference and the deadline.
 */
export const bankAccountSchema = z.object({
  accountName: z.string(),
  bankName: z.string(),
  accountNumber: z.string(),
  /** Null when the bank needs none. */
  branchCode: z.string().nullable(),
});
export type BankAccount = z.infer<typeof bankAccountSchema>;

/** One enabled method as `GET /api/payment/methods` answers it. */
export const paymentMethodSchema = z.object({
  id: paymentMethodIdSchema,
  /** "Card", "Mobile money (e-wallet)", "Bank transfer". */
  label: z.string(),
  /** One line under the label: what the parent will do. */
  description: z.string(),
  settlesLater: z.boolean(),
  /** Bank transfer only: the account to pay into, or null when none is configured (PayGate's page shows its own). */
  bankAccount: bankAccountSchema.nullable().optional(),
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

/** `GET /api/payment/methods`: the enabled methods, in the configured order of `PAYMENT_METHOD_IDS`. */
export const paymentMethodsResponseSchema = z.object({ methods: z.array(paymentMethodSchema).min(1) });
export type PaymentMethodsResponse = z.infer<typeof paymentMethodsResponseSchema>;

export function describePaymentMethod(methodId: PaymentMethodId): PaymentMethod {
  const texts = PAYMENT_METHOD_MSG.methods[methodId];
  return { id: methodId, label: texts.label, description: texts.description, settlesLater: PAYMENT_METHOD_DEFINITIONS[methodId].settlesLater };
}

/** A method as `GET /api/payment/methods` lists it: a bank transfer carries the configured account (or null). */
export const listedPaymentMethod =
  (bankAccount: BankAccount | null) =>
  (methodId: PaymentMethodId): PaymentMethod =>
    methodId === 'bank_transfer' ? { ...describePaymentMethod(methodId), bankAccount } : describePaymentMethod(methodId);
