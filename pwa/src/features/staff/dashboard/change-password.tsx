import { useMutation } from '@tanstack/react-query';
import { staffChangePasswordFormSchema } from '@contract/auth';
import { PWA_MSG } from '@contract/messages';
import { STAFF_MSG } from '@contract/staff-screen-messages';
import { Card, CardBody } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { SubmitButton } from '../../../components/ui/form-actions';
import { toast } from '../../../components/ui/toast';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useZodForm } from '../../../lib/form';
import { setStaffSession } from '../../../lib/storage';
import { changeStaffPassword } from '../api/auth';

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** "My Password" on the dashboard: the change signs out every other device; this one keeps the fresh token (docs/accounts.md, "Staff passwords"). */
export function ChangePassword() {
  const { values, errors, set, handleSubmit, reset } = useZodForm(staffChangePasswordFormSchema, EMPTY);
  const change = useMutation({
    mutationFn: changeStaffPassword,
    onSuccess: (session) => {
      setStaffSession(session.token, session.user);
      reset();
      toast({ title: STAFF_MSG.passwordChangedTitle, description: session.message, variant: 'success' });
    },
    onError: (err) => toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, PWA_MSG.errorTitle), variant: 'destructive' }),
  });
  const wrongCurrent = change.error instanceof ApiError && change.error.code === 'CURRENT_PASSWORD_WRONG' ? (change.error.serverMessage ?? undefined) : undefined;

  return (
    <Card>
      <CardBody>
        <form
          aria-label={STAFF_MSG.changePasswordTitle}
          noValidate
          className="stack"
          onSubmit={handleSubmit((data) => change.mutate({ currentPassword: data.currentPassword, newPassword: data.newPassword }))}
        >
          <h2>{STAFF_MSG.changePasswordTitle}</h2>
          <p className="muted">{STAFF_MSG.changePasswordHint}</p>
          <Field
            id="current-password"
            label={STAFF_MSG.currentPassword}
            revealable
            autoComplete="current-password"
            value={values.currentPassword}
            onChange={set('currentPassword')}
            error={errors.currentPassword ?? wrongCurrent}
          />
          <Field id="changed-password" label={STAFF_MSG.newPassword} revealable autoComplete="new-password" value={values.newPassword} onChange={set('newPassword')} error={errors.newPassword} />
          <Field
            id="changed-password-confirm"
            label={STAFF_MSG.confirmNewPassword}
            revealable
            autoComplete="new-password"
            value={values.confirmPassword}
            onChange={set('confirmPassword')}
            error={errors.confirmPassword}
          />
          <SubmitButton busy={change.isPending} busyLabel={STAFF_MSG.changingPassword}>
            {STAFF_MSG.changePassword}
          </SubmitButton>
        </form>
      </CardBody>
    </Card>
  );
}
