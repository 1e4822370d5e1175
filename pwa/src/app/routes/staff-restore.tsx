import { useSession } from '../../lib/session';
import { useTitle } from '../../lib/use-title';
import { StaffPage, AuthRequiredCard, Restoration } from '../../features/staff/staff-screens';
import { paths } from '../../lib/paths';

export default function StaffRestoreRoute() {
  const { staffToken } = useSession();
  useTitle('Photo Restoration');
  return <StaffPage>{staffToken ? <Restoration /> : <AuthRequiredCard loginPath={paths.photographer} />}</StaffPage>;
}
