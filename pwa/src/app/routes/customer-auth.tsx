import { Navigate, useNavigate } from 'react-router-dom';
import type { CustomerAuthResponse } from '@contract/auth';
import { Card, CardBody } from '../../components/ui/card';
import { SectionTabs } from '../../components/ui/tabs';
import { LoginForm } from '../../features/account/login-form';
import { RegisterForm } from '../../features/account/register-form';
import { setCustomerSession } from '../../lib/storage';
import { useSession } from '../../lib/session';
import { useTitle } from '../../lib/use-title';
import { paths } from '../../lib/paths';

/** /customer/auth and /user-auth: sign in or create an account, then My Orders. */
export default function CustomerAuth() {
  useTitle('Parent Sign In');
  const navigate = useNavigate();
  const { customerToken, customerUser } = useSession();
  if (customerToken && customerUser) return <Navigate to={paths.customerOrders} replace />;

  const signedIn = (session: CustomerAuthResponse) => {
    setCustomerSession(session.token, session.user);
    navigate(paths.customerOrders);
  };

  return (
    <div className="container page page-narrow">
      <h1>Parent Account</h1>
      <p className="muted">Sign in to see your orders and download your digital copies.</p>
      <Card>
        <CardBody>
          <SectionTabs
            label="Sign in or create an account"
            sections={[
              { value: 'signin', label: 'Sign In', content: <LoginForm forgotPath={paths.forgotPassword} onSignedIn={signedIn} /> },
              { value: 'register', label: 'Create Account', content: <RegisterForm onSignedIn={signedIn} /> },
            ]}
          />
        </CardBody>
      </Card>
    </div>
  );
}
