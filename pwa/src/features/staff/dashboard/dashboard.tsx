import { Link, useSearchParams } from 'react-router-dom';
import { Button, buttonClass } from '../../../components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { logoutStaff, useSession } from '../../../lib/session';
import { paths } from '../../../lib/paths';
import { COUPON_SCREEN_MSG, REPORT_SCREEN_MSG, STAFF_MSG } from '@contract/staff-screen-messages';
import { ReportsTab } from '../reports/reports-tab';
import { UploadTab } from '../upload/upload-tab';
import { AUDIT_MSG } from '@contract/audit';
import { AuditTab } from './audit-tab';
import { ChangePassword } from './change-password';
import { CouponsTab } from './coupons-tab';
import { PhotographersTab } from './photographers-tab';
import { PriceListsTab } from './price-lists-tab';
import { RecentOrders } from './recent-orders';
import { SchoolsTab } from './schools-tab';
import { StatCards } from './stat-cards';

export function Dashboard() {
  const { staffUser } = useSession();
  // The tab lives in the URL, so the reload after an upload comes back to the same tab.
  const [params, setParams] = useSearchParams();
  const isAdmin = staffUser?.role === 'admin';
  // The audit log is an admin's tab: a photographer is never offered it (docs/accounts.md, "The audit log").
  const asked = params.get('tab') ?? 'orders';
  const tab = asked === 'audit' && !isAdmin ? 'orders' : asked;
  return (
    <div className="stack">
      <div className="row between">
        <div>
          <h1>Photographer Dashboard</h1>
          <p className="muted">
            Signed in as {staffUser ? `${staffUser.firstName} ${staffUser.lastName}` : 'staff'}
            {staffUser?.role === 'admin' ? ' (administrator)' : ''}
          </p>
        </div>
        <div className="row">
          <Link to={paths.staffRecovery} className={buttonClass('ghost')}>
            Photo Recovery
          </Link>
          <Link to={paths.orderManagement} className={buttonClass('outline')}>
            Order Management
          </Link>
          <Button variant="ghost" onClick={logoutStaff}>
            Logout
          </Button>
        </div>
      </div>
      <StatCards />
      <Tabs value={tab} onValueChange={(value) => setParams({ tab: value }, { replace: true })}>
        <TabsList aria-label="Dashboard sections" className="staff-tabs">
          <TabsTrigger value="orders">Recent Orders</TabsTrigger>
          <TabsTrigger value="schools">Schools</TabsTrigger>
          <TabsTrigger value="reports">{REPORT_SCREEN_MSG.tab}</TabsTrigger>
          <TabsTrigger value="price-lists">Price Lists</TabsTrigger>
          <TabsTrigger value="coupons">{COUPON_SCREEN_MSG.tab}</TabsTrigger>
          <TabsTrigger value="photographers">Photographers</TabsTrigger>
          <TabsTrigger value="upload">Upload Photos</TabsTrigger>
          <TabsTrigger value="password">{STAFF_MSG.changePasswordTab}</TabsTrigger>
          {isAdmin ? <TabsTrigger value="audit">{AUDIT_MSG.tab}</TabsTrigger> : null}
        </TabsList>
        <TabsContent value="orders">
          <RecentOrders />
        </TabsContent>
        <TabsContent value="schools">
          <SchoolsTab />
        </TabsContent>
        <TabsContent value="reports">
          {/* Mounted only while open (Radix), so the charts' code is fetched only here. */}
          <ReportsTab />
        </TabsContent>
        <TabsContent value="price-lists">
          <PriceListsTab />
        </TabsContent>
        <TabsContent value="coupons">
          <CouponsTab />
        </TabsContent>
        <TabsContent value="photographers">
          <PhotographersTab isAdmin={isAdmin} currentUserId={staffUser?.id ?? null} />
        </TabsContent>
        <TabsContent value="upload">
          <UploadTab />
        </TabsContent>
        <TabsContent value="password">
          <ChangePassword />
        </TabsContent>
        {isAdmin ? (
          <TabsContent value="audit">
            <AuditTab />
          </TabsContent>
        ) : null}
      </Tabs>
    </div>
  );
}
