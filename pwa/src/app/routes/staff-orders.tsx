import { Navigate } from 'react-router-dom';
import { useSession } from '../../lib/session';
import { useTitle } from '../../lib/use-title';
import { StaffPage, OrderManagement } from '../../features/staff/staff-screens';
import { paths } from '../../lib/paths';

/** /photographer/orders and /order-management; without a staff token, the dashboard (login). */
export default function StaffOrdersRoute() {
  const { staffToken } = useSession();
  useTitle('Order Management');
  if (!staffToken) return <Navigate to={paths.staffDashboardAlias} replace />;
  return (
    <StaffPage>
      <OrderManagement />
    </StaffPage>
  );
}
