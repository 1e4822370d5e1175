/**
 * "How would you like to pay?" (docs/payments.md, "Choosing a method"): radio cards with each
 * enabled method's label and description, shown only when the server offers more than one. The
 * checkout and every "Pay" on an unpaid order use the same hook, so each sends the chosen method
 * with its payment, and a method the server refuses (400 PAYMENT_METHOD_NOT_ENABLED) is said so
 * and the choice fetched again.
 */
import { useId, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PAYMENT_METHOD_MSG, PWA_MSG } from '@contract/messages';
import type { PaymentMethod, PaymentMethodId } from '@contract/payment-methods';
import { toast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api-client';
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

export function usePaymentMethodChoice(): PaymentMethodChoiceState {
  const queryClient = useQueryClient();
  const query = useQuery(paymentMethodsQuery());
  const [chosen, setChosen] = useState<PaymentMethodId | null>(null);
  const methods = query.data ?? [];
  return {
    methods,
    method: effectiveMethod(methods, chosen),
    choose: setChosen,
    refused: async () => {
      toast({ title: PWA_MSG.paymentSetupFailedTitle, description: PAYMENT_METHOD_MSG.methodNotEnabled, variant: 'destructive' });
      setChosen(null);
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
