/** /reset-password?token=…: set a new password, sign in automatically, then My Orders after 2 s. */
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useMutation } from '@tanstack/react-query';
import { resetPasswordFormSchema } from '@contract/auth';
import { RESET_REDIRECT_DELAY_MS } from '@contract/constants';
import { HARDENING_MSG, MSG, PWA_MSG } from '@contract/messages';
import { buttonClass } from '../../components/ui/button';
import { NarrowCardPage } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { toast } from '../../components/ui/toast';
import { resetPassword } from '../../features/account/api';
import { ApiError, NetworkError, errorMessage } from '../../lib/api-client';
import { useZodForm } from '../../lib/form';
import { setCustomerSession } from '../../lib/storage';
import { useTitle } from '../../lib/use-title';
import { paths } from '../../lib/paths';
import { SubmitButton } from '../../components/ui/form-actions';

export default function ResetPassword() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  // The account made at checkout: its first password is set, not reset.
  const first = search.get('first') === '1';
  useTitle(first ? PWA_MSG.firstPasswordTitle : 'Set New Password');
  const navigate = useNavigate();
  const { values, errors, set, handleSubmit } = useZodForm(resetPasswordFormSchema, { newPassword: '', confirmPassword: '' });
  const [problem, setProblem] = useState<string | null>(null);

  const reset = useMutation({
    mutationFn: resetPassword,
    onSuccess: (session) => {
      setCustomerSession(session.token, session.user);
      toast({ title: first ? PWA_MSG.passwordSetTitle : PWA_MSG.resetSuccessTitle, description: PWA_MSG.resetLoggedIn, variant: 'success' });
    },
    onError: (err) => {
      setProblem(resetProblem(err));
      toast({ title: PWA_MSG.resetFailedTitle, description: errorMessage(err, PWA_MSG.resetFailed), variant: 'destructive' });
    },
  });

  useEffect(() => {
    if (!reset.isSuccess) return;
    const timer = window.setTimeout(() => navigate(paths.customerOrders), RESET_REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [reset.isSuccess, navigate]);

  if (!token) {
    return (
      <NarrowCardPage>
        <h1>Invalid Reset Link</h1>
        <p className="muted">{MSG.noResetToken}. Request a new link to reset your password.</p>
        <Link to={paths.forgotPassword} className={buttonClass('primary')}>
          Request New Reset Link
        </Link>
      </NarrowCardPage>
    );
  }

  if (reset.isSuccess) {
    return (
      <NarrowCardPage>
        <h1>{first ? PWA_MSG.passwordSetTitle : 'Password Reset Complete!'}</h1>
        <p role="status">Redirecting you to your order history...</p>
      </NarrowCardPage>
    );
  }

  return (
    <NarrowCardPage>
      <form onSubmit={handleSubmit((data) => reset.mutate({ token, newPassword: data.newPassword }))} noValidate>
        <h1>{first ? PWA_MSG.firstPasswordTitle : 'Set New Password'}</h1>
        {problem === LINK_INVALID ? (
          <p className="alert alert-danger" role="alert">
            {MSG.resetLinkInvalid} <Link to={paths.forgotPassword}>Request New Reset Link</Link>
          </p>
        ) : problem ? (
          <p className="alert alert-danger" role="alert">
            {problem}
          </p>
        ) : (
          <p className="muted">{first ? PWA_MSG.firstPasswordHint : 'Choose a new password of at least 6 characters.'}</p>
        )}
        <Field label="New password" revealable autoComplete="new-password" value={values.newPassword} error={errors.newPassword} onChange={set('newPassword')} />
        <Field label="Confirm password" revealable autoComplete="new-password" value={values.confirmPassword} error={errors.confirmPassword} onChange={set('confirmPassword')} />
        <SubmitButton block busy={reset.isPending} busyLabel={first ? PWA_MSG.working : 'Resetting...'}>
          {first ? PWA_MSG.setPassword : 'Reset Password'}
        </SubmitButton>
      </form>
    </NarrowCardPage>
  );
}

const LINK_INVALID = 'link-invalid';

/**
 * What went wrong, in words for this page: only a link the server refused as invalid or expired
 * says so; being offline or rate-limited says that instead (the link may still be good).
 */
function resetProblem(err: unknown): string {
  if (err instanceof NetworkError) return HARDENING_MSG.resetNetwork;
  if (err instanceof ApiError) {
    if (err.code === 'RESET_LINK_INVALID') return LINK_INVALID;
    if (err.status === 429) return HARDENING_MSG.resetRateLimited;
    return err.serverMessage ?? PWA_MSG.resetFailed;
  }
  return PWA_MSG.resetFailed;
}
