/** The app's routes, each screen its own lazy chunk. */
import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { paths } from '../lib/paths';
import { Layout } from './layout';
import { CheckoutRoute } from './checkout-route';
// Prerendered at build time, so part of the first download: their markup hydrates in the same pass
// as the layout. A lazy chunk would leave them dehydrated, and any update meanwhile (the restored
// query cache) would make React throw the prerendered markup away and show a spinner.
import Home from './routes/home';
import HowItWorks from './routes/how-it-works';

const SchoolGallery = lazy(() => import('./routes/school-gallery'));
const OrderConfirmation = lazy(() => import('./routes/order-confirmation'));
const CustomerAuth = lazy(() => import('./routes/customer-auth'));
const CustomerOrders = lazy(() => import('./routes/customer-orders'));
const ForgotPassword = lazy(() => import('./routes/forgot-password'));
const ResetPassword = lazy(() => import('./routes/reset-password'));
const NotFound = lazy(() => import('./routes/not-found'));
const Help = lazy(() => import('./routes/help'));
const Privacy = lazy(() => import('./routes/privacy'));
const CodeLanding = lazy(() => import('./routes/code'));
const Children = lazy(() => import('./routes/children'));
const ConfirmEmail = lazy(() => import('./routes/confirm-email'));
const Unsubscribe = lazy(() => import('./routes/unsubscribe'));
const StopSms = lazy(() => import('./routes/stop-sms'));
const CartRestore = lazy(() => import('./routes/cart-restore'));
const StaffDashboard = lazy(() => import('./routes/staff-dashboard'));
const StaffOrders = lazy(() => import('./routes/staff-orders'));
const StaffClasses = lazy(() => import('./routes/staff-classes'));
const StaffMessages = lazy(() => import('./routes/staff-messages'));
const StaffRecovery = lazy(() => import('./routes/staff-recovery'));
const StaffRestore = lazy(() => import('./routes/staff-restore'));
const StaffPassword = lazy(() => import('./routes/staff-password'));

/**
 * Declarative routes (not the data router): loaders are not used, and this keeps roughly half of
 * react-router out of the first download.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route path={paths.home} element={<Home />} />
        <Route path={paths.howItWorks} element={<HowItWorks />} />
        <Route path={paths.help} element={<Help />} />
        <Route path={paths.privacy} element={<Privacy />} />
        <Route path={paths.schoolPattern} element={<SchoolGallery />} />
        <Route path={paths.checkout} element={<CheckoutRoute />} />
        <Route path={paths.orderConfirmationPattern} element={<OrderConfirmation />} />
        <Route path={paths.userAuth} element={<CustomerAuth />} />
        <Route path={paths.customerAuth} element={<CustomerAuth />} />
        <Route path={paths.customerOrders} element={<CustomerOrders />} />
        <Route path={paths.forgotPassword} element={<ForgotPassword />} />
        <Route path={paths.resetPassword} element={<ResetPassword />} />
        <Route path={paths.codePattern} element={<CodeLanding />} />
        <Route path={paths.children} element={<Children />} />
        <Route path={paths.confirmEmail} element={<ConfirmEmail />} />
        <Route path={paths.unsubscribe} element={<Unsubscribe />} />
        <Route path={paths.stopSms} element={<StopSms />} />
        <Route path={paths.cartRestore} element={<CartRestore />} />
        <Route path={paths.photographer} element={<Navigate to={paths.staffDashboard} replace />} />
        <Route path={paths.staffDashboard} element={<StaffDashboard />} />
        <Route path={paths.staffDashboardAlias} element={<StaffDashboard />} />
        <Route path={paths.staffOrders} element={<StaffOrders />} />
        <Route path={paths.orderManagement} element={<StaffOrders />} />
        <Route path={paths.staffClassesPattern} element={<StaffClasses />} />
        <Route path={paths.staffMessagesPattern} element={<StaffMessages />} />
        <Route path={paths.staffRecovery} element={<StaffRecovery />} />
        <Route path={paths.staffRestore} element={<StaffRestore />} />
        <Route path={paths.staffForgotPassword} element={<StaffPassword />} />
        <Route path={paths.staffResetPassword} element={<StaffPassword />} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
