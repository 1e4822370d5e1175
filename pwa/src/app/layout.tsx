import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Toaster } from '../components/ui/toast';
import { PageSpinner } from '../components/ui/spinner';
import { clearCartKeys } from '../lib/cart';
import { isStaffSession } from '../lib/storage';
import { Header } from './header';
import { Footer } from './footer';

export function Layout() {
  const location = useLocation();

  // Staff have no cart: every route change wipes the cart keys (spec section 4).
  useEffect(() => {
    const staff = isStaffSession();
    if (staff) clearCartKeys();
    // The worker forgets state when it sleeps, so it is told again on every navigation.
    navigator.serviceWorker?.controller?.postMessage({ type: 'STAFF_SESSION', active: staff });
  }, [location.pathname]);

  // Move focus to the new page so keyboard and screen-reader users start at its top.
  useEffect(() => {
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
