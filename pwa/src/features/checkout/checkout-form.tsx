/** The contact form of spec section 5, validated with the contract's checkoutFormSchema. */
import { useState, type FormEvent } from 'react';
import { checkoutFormSchema } from '@contract/orders';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { Label } from '../../components/ui/label';
import { Textarea } from '../../components/ui/input';
import { fieldErrors, type FieldErrors } from '../../lib/form';
import type { CheckoutDetails } from './api';

type Field = keyof CheckoutDetails;

export interface CheckoutFormProps {
  initial: Partial<Record<Field, string>>;
  busy: boolean;
  busyLabel: string;
  disabled?: boolean;
  onSubmit: (details: CheckoutDetails) => void;
}

export function CheckoutForm({ initial, busy, busyLabel, disabled = false, onSubmit }: CheckoutFormProps) {
  const [values, setValues] = useState<Record<Field, string>>({
    customerName: initial.customerName ?? '',
    customerEmail: initial.customerEmail ?? '',
    customerPhone: initial.customerPhone ?? '',
    studentName: initial.studentName ?? '',
    notes: initial.notes ?? '',
  });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const set = (field: Field) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [field]: event.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = checkoutFormSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors<Field>(parsed.error));
      return;
    }
    setErrors({});
    onSubmit(parsed.data);
  };

  return (
    <form onSubmit={submit} noValidate>
      <TextField label="Your name" autoComplete="name" value={values.customerName} onChange={set('customerName')} error={errors.customerName} required />
      <TextField label="Email" type="email" autoComplete="email" inputMode="email" value={values.customerEmail} onChange={set('customerEmail')} error={errors.customerEmail} required />
      <TextField label="Phone (optional)" type="tel" autoComplete="tel" inputMode="tel" value={values.customerPhone} onChange={set('customerPhone')} error={errors.customerPhone} />
      <TextField label="Student name" autoComplete="off" value={values.studentName} onChange={set('studentName')} error={errors.studentName} hint="So the school can hand the prints to the right child." required />
      <div className="field">
        <Label htmlFor="checkout-notes">Notes (optional)</Label>
        <Textarea id="checkout-notes" value={values.notes} onChange={set('notes')} />
      </div>
      <Button type="submit" size="lg" block disabled={busy || disabled}>
        {busy ? busyLabel : 'Place Order and Pay'}
      </Button>
    </form>
  );
}
