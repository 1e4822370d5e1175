import { useState } from 'react';
import { Link } from 'react-router-dom';
import { staffLoginSchema, staffRegisterSchema } from '@contract/auth';
import { MSG, PWA_MSG } from '@contract/messages';
import { STAFF_MSG } from '@contract/staff-screen-messages';
import { Button } from '../../../components/ui/button';
import { Card, CardBody } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useZodForm } from '../../../lib/form';
import { staffSessionExpired } from '../../../lib/staff-expiry';
import { paths } from '../../../lib/paths';
import { loginStaff, registerStaff, startStaffSession, useRegistrationOpen } from '../api/auth';

/** Photographer login, and registration only while no staff account exists (the first becomes the administrator). */
export function StaffLogin() {
  const registration = useRegistrationOpen();
  const [sessionExpired] = useState(staffSessionExpired);
  const [mode, setMode] = useState<'login' | 'register'>('login');
  const [busy, setBusy] = useState(false);
  const canRegister = registration.data?.open === true;
  const registering = mode === 'register' && canRegister;
  const { values, errors, set, handleSubmit } = useZodForm(registering ? staffRegisterSchema : staffLoginSchema, { email: '', password: '', firstName: '', lastName: '' });

  const submit = async () => {
    setBusy(true);
    try {
      const session = registering ? await registerStaff(staffRegisterSchema.parse(values)) : await loginStaff(staffLoginSchema.parse(values));
      toast(registering ? { title: STAFF_MSG.registrationSuccessTitle, description: STAFF_MSG.adminAccountReady, variant: 'success' } : { title: PWA_MSG.loginSuccessTitle, description: PWA_MSG.welcomeBack, variant: 'success' });
      startStaffSession(session);
    } catch (err) {
      toast({ title: registering ? 'Registration Failed' : PWA_MSG.loginFailedTitle, description: errorMessage(err, registering ? 'Could not create the account' : MSG.invalidCredentials), variant: 'destructive' });
      if (registering) void registration.refetch();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className="staff-auth-card">
      <CardBody>
        <h1>{registering ? 'Create the administrator account' : 'Photographer Login'}</h1>
        <p className="muted">{registering ? 'No staff account exists yet. The first account becomes the administrator.' : 'Sign in to manage schools, photos and orders.'}</p>
        {sessionExpired && !registering ? (
          <p className="alert alert-warn" role="alert">
            {MSG.sessionExpired}
          </p>
        ) : null}
        <form onSubmit={handleSubmit(submit)} noValidate>
          {registering ? (
            <div className="grid grid-2">
              <Field id="staff-first-name" label="First name" autoComplete="given-name" value={values.firstName} onChange={set('firstName')} error={errors.firstName} />
              <Field id="staff-last-name" label="Last name" autoComplete="family-name" value={values.lastName} onChange={set('lastName')} error={errors.lastName} />
            </div>
          ) : null}
          <Field id="staff-email" label="Email" type="email" autoComplete="email" value={values.email} onChange={set('email')} error={errors.email} />
          <Field id="staff-password" label="Password" type="password" autoComplete={registering ? 'new-password' : 'current-password'} value={values.password} onChange={set('password')} error={errors.password} />
          <Button type="submit" block disabled={busy}>
            {busy ? (registering ? 'Creating account...' : 'Signing in...') : registering ? 'Create Account' : 'Sign In'}
          </Button>
        </form>
        {registering ? null : (
          <p className="center staff-switch">
            <Link to={paths.staffForgotPassword}>{STAFF_MSG.forgotPasswordLink}</Link>
          </p>
        )}
        {canRegister ? (
          <p className="center staff-switch">
            <Button variant="ghost" onClick={() => setMode(registering ? 'login' : 'register')}>
              {registering ? 'I already have an account' : 'First time here? Create the administrator account'}
            </Button>
          </p>
        ) : null}
      </CardBody>
    </Card>
  );
}
