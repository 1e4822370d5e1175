/** Staff "Forgot password?" and the page the e-mailed link opens (docs/accounts.md, "Staff passwords"). */
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useMutation } from '@tanstack/react-query';
import { forgotPasswordSchema, resetPasswordFormSchema } from '@contract/auth';
import { HARDENING_MSG, MSG, PWA_MSG } from '@contract/messages';
import { STAFF_MSG } from '@contract/staff-screen-messages';
import { buttonClass } from '../../../components/ui/button';
import { Card, CardBody } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { SubmitButton } from '../../../components/ui/form-actions';
import { toast } from '../../../components/ui/toast';
import { ApiError, NetworkError, errorMessage } from '../../../lib/api-client';
import { useZodForm } from '../../../lib/form';
import { setStaffSession } from '../../../lib/storage';
import { paths } from '../../../lib/paths';
import { requestStaffPasswordReset, resetStaffPassword } from '../api/auth';

export function StaffForgotPassword() {
  const { values, errors, set, handleSubmit } = useZodForm(forgotPasswordSchema, { email: '' });
  const [sent, setSent] = useState(false);
  const request = useMutation({
    mutationFn: requestStaffPasswordReset,
    onSuccess: () => setSent(true),
    onError: (err) => toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, PWA_MSG.resetEmailFailed), variant: 'destructive' }),
  });

  return (
    <Card className="staff-auth-card">
      <CardBody>
        <h1>{STAFF_MSG.staffForgotTitle}</h1>
        {sent ? (
          <div className="stack">
            <p role="status">{MSG.resetLinkSent}</p>
            <p className="muted">{STAFF_MSG.staffForgotSent}</p>
          </div>
        ) : (
          <form onSubmit={handleSubmit((data) => request.mutate(data))} noValidate>
            <p className="muted">{STAFF_MSG.staffForgotHint}</p>
            <Field id="staff-reset-email" label="Email" type="email" autoComplete="email" inputMode="email" value={values.email} error={errors.email} onChange={set('email')} />
            <SubmitButton block busy={request.isPending} busyLabel={STAFF_MSG.sendingResetLink}>
              {STAFF_MSG.sendResetLink}
            </SubmitButton>
          </form>
        )}
        <p className="center staff-switch">
          <Link to={paths.staffDashboard}>{STAFF_MSG.backToStaffLogin}</Link>
        </p>
      </CardBody>
    </Card>
  );
}

export function StaffResetPassword() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const navigate = useNavigate();
  const { values, errors, set, handleSubmit } = useZodForm(resetPasswordFormSchema, { newPassword: '', confirmPassword: '' });
  const reset = useMutation({
    mutationFn: resetStaffPassword,
    onSuccess: (session) => {
      setStaffSession(session.token, session.user);
      toast({ title: PWA_MSG.resetSuccessTitle, description: STAFF_MSG.staffResetDone, variant: 'success' });
      navigate(paths.staffDashboard, { replace: true });
    },
  });

  if (!token) {
    return (
      <Card className="staff-auth-card">
        <CardBody className="stack">
          <h1>{STAFF_MSG.staffResetTitle}</h1>
          <p className="muted">{STAFF_MSG.staffResetNoToken}</p>
          <Link to={paths.staffForgotPassword} className={buttonClass('primary')}>
            {STAFF_MSG.forgotPasswordLink}
          </Link>
        </CardBody>
      </Card>
    );
  }

  const problem = reset.error ? resetProblem(reset.error) : null;
  return (
    <Card className="staff-auth-card">
      <CardBody>
        <form onSubmit={handleSubmit((data) => reset.mutate({ token, newPassword: data.newPassword }))} noValidate>
          <h1>{STAFF_MSG.staffResetTitle}</h1>
          {problem ? (
            <p className="alert alert-danger" role="alert">
              {problem} {problem === MSG.resetLinkInvalid ? <Link to={paths.staffForgotPassword}>{STAFF_MSG.forgotPasswordLink}</Link> : null}
            </p>
          ) : null}
          <Field id="staff-new-password" label={STAFF_MSG.newPassword} revealable autoComplete="new-password" value={values.newPassword} error={errors.newPassword} onChange={set('newPassword')} />
          <Field
            id="staff-new-password-confirm"
            label={STAFF_MSG.confirmNewPassword}
            revealable
            autoComplete="new-password"
            value={values.confirmPassword}
            error={errors.confirmPassword}
            onChange={set('confirmPassword')}
          />
          <SubmitButton block busy={reset.isPending} busyLabel={STAFF_MSG.resettingPassword}>
            {STAFF_MSG.resetPassword}
          </SubmitButton>
        </form>
      </CardBody>
    </Card>
  );
}

/** As on the customers' page: only a refused link says so; offline or rate-limited says that instead. */
function resetProblem(err: unknown): string {
  if (err instanceof NetworkError) return HARDENING_MSG.resetNetwork;
  if (err instanceof ApiError) {
    if (err.code === 'RESET_LINK_INVALID') return MSG.resetLinkInvalid;
    if (err.status === 429) return HARDENING_MSG.resetRateLimited;
    return err.serverMessage ?? PWA_MSG.resetFailed;
  }
  return PWA_MSG.resetFailed;
}
