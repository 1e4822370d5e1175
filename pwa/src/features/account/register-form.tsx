import { HARDENING_MSG, PWA_MSG } from '@contract/messages';
import { useMutation } from '@tanstack/react-query';
import { customerRegisterSchema, type CustomerAuthResponse } from '@contract/auth';
import { Field } from '../../components/ui/field';
import { toast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/api-client';
import { useZodForm } from '../../lib/form';
import { registerCustomer } from './api';
import { SubmitButton } from '../../components/ui/form-actions';

export function RegisterForm({ onSignedIn }: { onSignedIn: (session: CustomerAuthResponse) => void }) {
  const { values, errors, set, handleSubmit } = useZodForm(customerRegisterSchema, { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' });
  const register = useMutation({
    mutationFn: registerCustomer,
    onSuccess: (session) => {
      toast({ title: HARDENING_MSG.accountCreatedTitle, description: PWA_MSG.welcomeName(session.user.firstName), variant: 'success' });
      onSignedIn(session);
    },
    onError: (err) => toast({ title: PWA_MSG.registrationFailedTitle, description: errorMessage(err, PWA_MSG.registerFailed), variant: 'destructive' }),
  });

  return (
    <form onSubmit={handleSubmit((data) => register.mutate(data))} noValidate>
      <div className="grid grid-2" style={{ gap: '0 var(--space-4)' }}>
        <Field label="First name" autoComplete="given-name" value={values.firstName} error={errors.firstName} onChange={set('firstName')} />
        <Field label="Last name" autoComplete="family-name" value={values.lastName} error={errors.lastName} onChange={set('lastName')} />
      </div>
      <Field label="Email" type="email" autoComplete="email" inputMode="email" value={values.email} error={errors.email} onChange={set('email')} />
      <Field label="Password" revealable autoComplete="new-password" value={values.password} error={errors.password} onChange={set('password')} />
      <Field label="Confirm password" revealable autoComplete="new-password" value={values.confirmPassword} error={errors.confirmPassword} onChange={set('confirmPassword')} />
      <SubmitButton block busy={register.isPending} busyLabel="Creating account...">
        Create Account
      </SubmitButton>
    </form>
  );
}
