import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useMutation } from '@tanstack/react-query';
import { customerLoginSchema, type CustomerAuthResponse } from '@contract/auth';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { PasswordField } from '../../components/ui/password-field';
import { toast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/api-client';
import { fieldErrors, type FieldErrors } from '../../lib/form';
import { loginCustomer } from './api';

type Field = 'email' | 'password';

export function LoginForm({ forgotPath, onSignedIn }: { forgotPath: string; onSignedIn: (session: CustomerAuthResponse) => void }) {
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const login = useMutation({
    mutationFn: loginCustomer,
    onSuccess: (session) => {
      toast({ title: 'Login Successful', description: 'Welcome back!', variant: 'success' });
      onSignedIn(session);
    },
    onError: (err) => toast({ title: 'Login Failed', description: errorMessage(err, 'Invalid email or password'), variant: 'destructive' }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = customerLoginSchema.safeParse(values);
    if (!parsed.success) return setErrors(fieldErrors<Field>(parsed.error));
    setErrors({});
    login.mutate(parsed.data);
  };

  return (
    <form onSubmit={submit} noValidate>
      <TextField label="Email" type="email" autoComplete="email" inputMode="email" value={values.email} error={errors.email} onChange={(event) => setValues({ ...values, email: event.target.value })} />
      <PasswordField label="Password" autoComplete="current-password" value={values.password} error={errors.password} onChange={(event) => setValues({ ...values, password: event.target.value })} />
      <p>
        <Link to={forgotPath}>Forgot your password?</Link>
      </p>
      <Button type="submit" block disabled={login.isPending}>
        {login.isPending ? 'Signing in...' : 'Sign In'}
      </Button>
    </form>
  );
}
