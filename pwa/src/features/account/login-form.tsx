import { Link } from 'react-router-dom';
import { useMutation } from '@tanstack/react-query';
import { customerLoginSchema, type CustomerAuthResponse } from '@contract/auth';
import { MSG, PWA_MSG } from '@contract/messages';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { toast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/api-client';
import { useZodForm } from '../../lib/form';
import { loginCustomer } from './api';

export function LoginForm({ forgotPath, onSignedIn }: { forgotPath: string; onSignedIn: (session: CustomerAuthResponse) => void }) {
  const { values, errors, set, handleSubmit } = useZodForm(customerLoginSchema, { email: '', password: '' });
  const login = useMutation({
    mutationFn: loginCustomer,
    onSuccess: (session) => {
      toast({ title: PWA_MSG.loginSuccessTitle, description: PWA_MSG.welcomeBack, variant: 'success' });
      onSignedIn(session);
    },
    onError: (err) => toast({ title: PWA_MSG.loginFailedTitle, description: errorMessage(err, MSG.invalidCredentials), variant: 'destructive' }),
  });

  return (
    <form onSubmit={handleSubmit((data) => login.mutate(data))} noValidate>
      <Field label="Email" type="email" autoComplete="email" inputMode="email" value={values.email} error={errors.email} onChange={set('email')} />
      <Field label="Password" revealable autoComplete="current-password" value={values.password} error={errors.password} onChange={set('password')} />
      <p>
        <Link to={forgotPath}>Forgot your password?</Link>
      </p>
      <Button type="submit" block disabled={login.isPending}>
        {login.isPending ? 'Signing in...' : 'Sign In'}
      </Button>
    </form>
  );
}
