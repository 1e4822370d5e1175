/** The checkout's contact form, validated with the contract's checkoutFormSchema. */
import type { ReactNode } from 'react';
import { checkoutFormSchema } from '@contract/orders';
import { ORDER_PHONE_MSG } from '@contract/order-sms';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { useZodForm } from '../../lib/form';
import type { CheckoutDetails } from './api';

type DetailField = keyof CheckoutDetails;

export interface CheckoutFormProps {
  initial: Partial<Record<DetailField, string>>;
  busy: boolean;
  busyLabel: string;
  disabled?: boolean;
  onSubmit: (details: CheckoutDetails) => void;
  /** Shown above the submit button (the payment method choice). */
  beforeSubmit?: ReactNode;
}

export function CheckoutForm({ initial, busy, busyLabel, disabled = false, onSubmit, beforeSubmit = null }: CheckoutFormProps) {
  const { values, errors, set, handleSubmit } = useZodForm(checkoutFormSchema, {
    customerName: initial.customerName ?? '',
    customerEmail: initial.customerEmail ?? '',
    customerPhone: initial.customerPhone ?? '',
    studentName: initial.studentName ?? '',
    notes: initial.notes ?? '',
  } satisfies Record<DetailField, string>);

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate>
      <Field label="Your name" autoComplete="name" value={values.customerName} onChange={set('customerName')} error={errors.customerName} required />
      <Field label="Email" type="email" autoComplete="email" inputMode="email" value={values.customerEmail} onChange={set('customerEmail')} error={errors.customerEmail} required />
      <Field
        label={ORDER_PHONE_MSG.label}
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        value={values.customerPhone}
        onChange={set('customerPhone')}
        error={errors.customerPhone}
        hint={ORDER_PHONE_MSG.hint}
      />
      <Field label="Student name" autoComplete="off" value={values.studentName} onChange={set('studentName')} error={errors.studentName} hint="So the school can hand the prints to the right child." required />
      <Field id="checkout-notes" label="Notes (optional)" multiline value={values.notes} onChange={set('notes')} error={errors.notes} />
      {beforeSubmit}
      <Button type="submit" size="lg" block disabled={busy || disabled}>
        {busy ? busyLabel : 'Place Order and Pay'}
      </Button>
    </form>
  );
}
