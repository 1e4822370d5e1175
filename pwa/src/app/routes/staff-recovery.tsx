import { useSession } from '../../lib/session';
import { useTitle } from '../../lib/use-title';
import { StaffPage, AuthRequiredCard, RecoveryCenter } from '../../features/staff/staff-screens';
import { paths } from '../../lib/paths';

export default function StaffRecoveryRoute() {
  const { staffToken } = useSession();
  useTitle('Photo Recovery Center');
  return <StaffPage>{staffToken ? <RecoveryCenter /> : <AuthRequiredCard loginPath={paths.photographer} />}</StaffPage>;
}
