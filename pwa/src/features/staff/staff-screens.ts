/**
 * The one door from the staff routes into features/staff. Every staff route imports this module,
 * so the bundler puts all staff code in one shared chunk named after it (staff-screens-*.js);
 * the service worker's precache skips staff-* files, so a parent's phone never downloads it.
 */
export { StaffPage } from './common/staff-page';
export { AuthRequiredCard } from './common/auth-gate';
export { Dashboard } from './dashboard/dashboard';
export { StaffLogin } from './dashboard/staff-login';
export { ClassManagement } from './classes/class-management';
export { SchoolMessages } from './messages/school-messages';
export { OrderManagement } from './orders/order-management';
export { RecoveryCenter } from './recovery/recovery-center';
export { Restoration } from './recovery/restoration';
export { StaffForgotPassword, StaffResetPassword } from './dashboard/staff-password-reset';
