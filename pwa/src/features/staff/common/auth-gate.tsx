import { Link } from 'react-router-dom';
import { buttonClass } from '../../../components/ui/button';
import { Card, CardBody } from '../../../components/ui/card';

/** The recovery and restoration gate without a staff token. */
export function AuthRequiredCard({ loginPath }: { loginPath: string }) {
  return (
    <Card className="staff-auth-card">
      <CardBody className="stack center">
        <h1>Authentication Required</h1>
        <p className="muted">Please log in as a photographer or administrator to use this page.</p>
        <Link to={loginPath} className={buttonClass('primary')}>
          Go to Login
        </Link>
      </CardBody>
    </Card>
  );
}
