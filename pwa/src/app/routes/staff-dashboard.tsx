import { useSession } from '../../lib/session';
import { useTitle } from '../../lib/use-title';
import { StaffPage, Dashboard, StaffLogin } from '../../features/staff/staff-screens';

/** /photographer/dashboard and /photographer-dashboard: login without a token, else the dashboard. */
export default function StaffDashboardRoute() {
  const { staffToken } = useSession();
  useTitle(staffToken ? 'Dashboard' : 'Photographer Login');
  return <StaffPage>{staffToken ? <Dashboard /> : <StaffLogin />}</StaffPage>;
}
