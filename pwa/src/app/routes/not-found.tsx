import { Link } from 'react-router-dom';
import { buttonClass } from '../../components/ui/button';
import { useTitle } from '../../lib/use-title';
import { paths } from '../../lib/paths';

export default function NotFound() {
  useTitle('Page Not Found');
  return (
    <div className="container page page-narrow center">
      <h1>Page Not Found</h1>
      <p className="muted">The page you're looking for doesn't exist or has moved.</p>
      <Link to={paths.home} className={buttonClass('primary')}>
        Back to Home
      </Link>
    </div>
  );
}
