import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { customerRegisterSchema, type CustomerAuthResponse } from '@contract/auth';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { PasswordField } from '../../components/ui/password-field';
import { toast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/api-client';
import { fieldErrors, type FieldErrors } from '../../lib/form';
import { registerCustomer } from './api';

type Field = 'firstName' | 'lastName' | 'email' | 'password' | 'confirmPassword';

export function RegisterForm({ onSignedIn }: { onSignedIn: (session: CustomerAuthResponse) => void }) {
  const [values, setValues] = useState<Record<Field, string>>({ firstName: '', lastName: '', email: '', password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const set = (field: Field) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [field]: event.target.value }));
  const register = useMutation({
    mutationFn: registerCustomer,
    onSuccess: (session) => {
      toast({ title: 'Account Created', description: `Welcome, ${session.user.firstName}!`, variant: 'success' });
      onSignedIn(session);
    },
    onError: (err) => toast({ title: 'Registration Failed', description: errorMessage(err, 'Could not create your account. Please try again.'), variant: 'destructive' }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = customerRegisterSchema.safeParse(values);
    if (!parsed.success) return setErrors(fieldErrors<Field>(parsed.error));
    setErrors({});
    register.mutate(parsed.data);
  };

  return (
    <form onSubmit={submit} noValidate>
      <div className="grid grid-2" style={{ gap: '0 var(--space-4)' }}>
        <TextField label="First name" autoComplete="given-name" value={values.firstName} error={errors.firstName} onChange={set('firstName')} />
        <TextField label="Last name" autoComplete="family-name" value={values.lastName} error={errors.lastName} onChange={set('lastName')} />
      </div>
      <TextField label="Email" type="email" autoComplete="email" inputMode="email" value={values.email} error={errors.email} onChange={set('email')} />
      <PasswordField label="Password" autoComplete="new-password" value={values.password} error={errors.password} onChange={set('password')} />
      <PasswordField label="Confirm password" autoComplete="new-password" value={values.confirmPassword} error={errors.confirmPassword} onChange={set('confirmPassword')} />
      <Button type="submit" block disabled={register.isPending}>
        {register.isPending ? 'Creating account...' : 'Create Account'}
      </Button>
    </form>
  );
}
