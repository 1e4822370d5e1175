/**
 * "How would you like to pay?" (docs/payments.md, "Choosing a method"): radio cards with each
 * enabled method's label and description, shown only when the server offers more than one. The
 * checkout and every "Pay" on an unpaid order use the same hook, so each sends the chosen method
 * with its payment, and a method the server refuses (400 PAYMENT_METHOD_NOT_ENABLED) is said so
 * and the choice fetched again. The parent's last choice is kept on the device, so paying again
 * ("Pay Order", back from PayGate's page, another visit) starts from the method chosen last: mobile
 * money stays mobile money, with the choice still offered.
 */
import { useId, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PAYMENT_METHOD_MSG, PWA_MSG } from '@contract/messages';
import { isPaymentMethodId, type PaymentMethod, type PaymentMethodId } from '@contract/payment-methods';
import { toast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api-client';
import { readRaw, removeKeys, writeRaw } from '../../lib/storage';
import { effectiveMethod, paymentMethodsQuery, refreshPaymentMethods } from '../../lib/payment-methods';
import '../../styles/payment.css';

export const METHOD_NOT_ENABLED = 'PAYMENT_METHOD_NOT_ENABLED';

export const isMethodNotEnabled = (err: unknown): err is ApiError => err instanceof ApiError && err.status === 400 && err.code === METHOD_NOT_ENABLED;

export interface PaymentMethodChoiceState {
  /** The enabled methods, once known (empty while loading or when they could not be fetched). */
  methods: readonly PaymentMethod[];
  /** What to send with the payment: the choice, else the first enabled; undefined while unknown. */
  method: PaymentMethodId | undefined;
  choose: (method: PaymentMethodId) => void;
  /** A payment was refused for its method: tells the parent and fetches the methods again. */
  refused: () => Promise<void>;
}

/** The method the parent chose last on this device (local storage). */
export const LAST_METHOD_KEY = 'paymentMethod';
const readLastMethod = (): PaymentMethodId | null => {
  const stored = readRaw(LAST_METHOD_KEY);
  return stored !== null && isPaymentMethodId(stored) ? stored : null;
};

/**
 * `initial`: the method an order's latest payment was begun with (My Orders), which wins over the
 * device's last choice; either is used only while the server still offers it.
 */
export function usePaymentMethodChoice(initial: PaymentMethodId | null = null): PaymentMethodChoiceState {
  const queryClient = useQueryClient();
  const query = useQuery(paymentMethodsQuery());
  const [chosen, setChosen] = useState<PaymentMethodId | null>(() => initial ?? readLastMethod());
  const methods = query.data ?? [];
  return {
    methods,
    method: effectiveMethod(methods, chosen),
    choose: (method) => {
      setChosen(method);
      writeRaw(LAST_METHOD_KEY, method);
    },
    refused: async () => {
      toast({ title: PWA_MSG.paymentSetupFailedTitle, description: PAYMENT_METHOD_MSG.methodNotEnabled, variant: 'destructive' });
      setChosen(null);
      removeKeys([LAST_METHOD_KEY]);
      await refreshPaymentMethods(queryClient).catch(() => undefined);
    },
  };
}

export function PaymentMethodChoice({ choice, disabled = false }: { choice: PaymentMethodChoiceState; disabled?: boolean }) {
  const name = useId();
  if (choice.methods.length < 2) return null;
  return (
    <fieldset className="method-choice">
      <legend>{PAYMENT_METHOD_MSG.chooseTitle}</legend>
      {choice.methods.map((method) => (
        <label key={method.id} className="method-option">
          <input
            type="radio"
            name={name}
            value={method.id}
            checked={choice.method === method.id}
            disabled={disabled}
            aria-labelledby={`${name}-${method.id}-label`}
            aria-describedby={`${name}-${method.id}`}
            onChange={() => choice.choose(method.id)}
          />
          <span>
            <strong id={`${name}-${method.id}-label`}>{method.label}</strong>
            <span className="muted" id={`${name}-${method.id}`}>
              {method.description}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
