import { Navigate, useParams } from 'react-router-dom';
import { useSession } from '../../lib/session';
import { useTitle } from '../../lib/use-title';
import { StaffPage, SchoolMessages } from '../../features/staff/staff-screens';
import { paths } from '../../lib/paths';

/** /photographer/schools/{schoolId}/messages; without a staff token it goes to /. */
export default function StaffMessagesRoute() {
  const { staffToken } = useSession();
  const { schoolId = '' } = useParams();
  useTitle('Messages');
  if (!staffToken) return <Navigate to={paths.home} replace />;
  return (
    <StaffPage wide>
      <SchoolMessages schoolId={Number(schoolId)} />
    </StaffPage>
  );
}
