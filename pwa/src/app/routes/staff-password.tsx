import { useLocation } from 'react-router-dom';
import { STAFF_MSG } from '@contract/staff-screen-messages';
import { useTitle } from '../../lib/use-title';
import { paths } from '../../lib/paths';
import { StaffPage, StaffForgotPassword, StaffResetPassword } from '../../features/staff/staff-screens';

/** /photographer/forgot-password and /photographer/reset-password?token=… (docs/accounts.md, "Staff passwords"). */
export default function StaffPasswordRoute() {
  const resetting = useLocation().pathname === paths.staffResetPassword;
  useTitle(resetting ? STAFF_MSG.staffResetTitle : STAFF_MSG.staffForgotTitle);
  return <StaffPage>{resetting ? <StaffResetPassword /> : <StaffForgotPassword />}</StaffPage>;
}
