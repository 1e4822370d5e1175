import { Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { FIRST_VISIT_MSG } from '@contract/first-visit-messages';
import { Toaster, toast } from '../components/ui/toast';
import { PageSpinner } from '../components/ui/spinner';
import { clearCartKeys } from '../lib/cart';
import { isStaffSession } from '../lib/storage';
import { STAFF_SESSION_EXPIRED_EVENT } from '../lib/staff-expiry';
import { paths } from '../lib/paths';
import { Header } from './header';
import { Footer } from './footer';

export function Layout() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  // The API client cleared an expired staff session: back to the staff login, saying why.
  useEffect(() => {
    const onExpired = () => {
      // Every staff query key starts with 'staff' (features/staff/api/keys).
      queryClient.removeQueries({ queryKey: ['staff'] });
      toast({ title: FIRST_VISIT_MSG.sessionExpiredTitle, description: FIRST_VISIT_MSG.sessionExpired, variant: 'destructive' });
      // After the screens' own "no token" redirects have run, so the staff login is where it ends.
      window.setTimeout(() => navigate(paths.staffDashboardAlias, { replace: true }), 0);
    };
    window.addEventListener(STAFF_SESSION_EXPIRED_EVENT, onExpired);
    return () => window.removeEventListener(STAFF_SESSION_EXPIRED_EVENT, onExpired);
  }, [navigate, queryClient]);

  // Staff have no cart: every route change wipes the cart keys.
  useEffect(() => {
    const staff = isStaffSession();
    if (staff) clearCartKeys();
    // The worker forgets state when it sleeps, so it is told again on every navigation.
    navigator.serviceWorker?.controller?.postMessage({ type: 'STAFF_SESSION', active: staff });
  }, [location.pathname]);

  // Move focus to the new page so keyboard and screen-reader users start at its top. Not on the
  // page the browser opened: focus and scroll are already at its start there, and focusing makes
  // the browser lay the page out at once, inside the first render's effects (a longer task on a
  // slow phone, docs/performance.md "The first screen").
  const shownPath = useRef(location.pathname);
  useEffect(() => {
    if (shownPath.current === location.pathname) return;
    shownPath.current = location.pathname;
    document.getElementById('main')?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, [location.pathname]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <Toaster />
    </>
  );
}
