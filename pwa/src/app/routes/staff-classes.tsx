import { Navigate, useParams } from 'react-router-dom';
import { useSession } from '../../lib/session';
import { useTitle } from '../../lib/use-title';
import { StaffPage, ClassManagement } from '../../features/staff/staff-screens';
import { paths } from '../../lib/paths';

/** /photographer/schools/{schoolId}/classes; without a staff token it goes to /. */
export default function StaffClassesRoute() {
  const { staffToken } = useSession();
  const { schoolId = '' } = useParams();
  useTitle('Class Management');
  if (!staffToken) return <Navigate to={paths.home} replace />;
  return (
    <StaffPage wide>
      <ClassManagement schoolId={Number(schoolId)} />
    </StaffPage>
  );
}
