import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useMutation } from '@tanstack/react-query';
import { forgotPasswordSchema } from '@contract/auth';
import { MSG, PWA_MSG } from '@contract/messages';
import { Button, buttonClass } from '../../components/ui/button';
import { Card, CardBody } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { toast } from '../../components/ui/toast';
import { requestPasswordReset } from '../../features/account/api';
import { errorMessage } from '../../lib/api-client';
import { useZodForm } from '../../lib/form';
import { useTitle } from '../../lib/use-title';
import { paths } from '../../lib/paths';

export default function ForgotPassword() {
  useTitle('Reset Your Password');
  const { values, errors, set, handleSubmit } = useZodForm(forgotPasswordSchema, { email: '' });
  const email = values.email;
  const [sent, setSent] = useState(false);
  const request = useMutation({
    mutationFn: requestPasswordReset,
    onSuccess: () => {
      setSent(true);
      toast({ title: PWA_MSG.emailSentTitle, description: MSG.resetLinkSent, variant: 'success' });
    },
    onError: (err) => toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, PWA_MSG.resetEmailFailed), variant: 'destructive' }),
  });

  return (
    <div className="container page page-narrow">
      <Card>
        <CardBody>
          {sent ? (
            <>
              <h1>Check Your Email</h1>
              <p>
                If an account exists for <strong>{email}</strong>, we've sent a link to reset your password. The link expires in 1 hour.
              </p>
              <p className="muted">Can't find it? Check your spam or junk folder.</p>
              <div className="row">
                <Button variant="outline" onClick={() => setSent(false)}>
                  Try Different Email
                </Button>
                <Link to={paths.userAuth} className={buttonClass('primary')}>
                  Back to Login
                </Link>
              </div>
            </>
          ) : (
            <form onSubmit={handleSubmit((data) => request.mutate(data))} noValidate>
              <h1>Reset Your Password</h1>
              <p className="muted">Enter the email address of your account and we'll send you a link to set a new password.</p>
              <Field label="Email" type="email" autoComplete="email" inputMode="email" value={email} error={errors.email} onChange={set('email')} />
              <Button type="submit" block disabled={request.isPending}>
                {request.isPending ? 'Sending...' : 'Send Reset Link'}
              </Button>
              <p className="center" style={{ marginTop: 'var(--space-4)' }}>
                <Link to={paths.userAuth}>Back to Login</Link>
              </p>
            </form>
          )}
        </CardBody>
      </Card>
    </div>
  );
}
