import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, NavLink, useNavigate } from 'react-router-dom';
import { Button } from '../components/ui/button';
import { businessName } from '../lib/brand';
import { cartCount, useCart } from '../lib/cart';
import { afterPaint } from '../lib/after-paint';
import { buildCheckoutCart } from '../lib/checkout-cart';
import { loadCheckout } from './checkout-route';
import { clearCustomerSession } from '../lib/storage';
import { logoutStaff, useSession } from '../lib/session';
import { purgeGalleryCaches } from '../lib/offline-caches';
import { paths } from '../lib/paths';

const MobileDrawer = lazy(() => import('./mobile-drawer'));

interface NavItem {
  to: string;
  label: string;
}

/** The shared header: links by session, cart button, drawer on small screens. */
export function Header() {
  const session = useSession();
  const cart = useCart();
  const navigate = useNavigate();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const name = businessName();
  const count = cartCount(cart);
  const showCart = !session.isStaff && count > 0;
  const loggedIn = Boolean(session.staffToken || session.customerToken);

  // A parent with something in the cart is on the way to checkout: its code is fetched now (and kept
  // by the service worker), so checkout opens offline too; the same import as the checkout route's
  // (checkout-route.tsx), never a second one beside it. Then the start-up restore of the cart from
  // IndexedDB (lib/hydrate.ts), so a later start without a connection brings the cart back too. A
  // parent only browsing downloads neither.
  useEffect(() => {
    if (!showCart) return;
    // After the paint that shows the cart button (docs/performance.md, "The first taps").
    afterPaint(() => {
      void loadCheckout()
        .then(() => import('../lib/hydrate'))
        .catch(() => undefined);
    });
  }, [showCart]);

  const links: NavItem[] = [];
  if (session.staffToken) {
    links.push({ to: paths.staffDashboardAlias, label: 'Dashboard' }, { to: paths.orderManagement, label: 'Order Management' });
  }
  if (session.customerToken) links.push({ to: paths.customerOrders, label: 'My Orders' });
  links.push({ to: paths.howItWorks, label: 'How It Works' });
  if (!loggedIn) {
    links.push({ to: paths.customerAuth, label: 'Parent Login' }, { to: paths.staffDashboardAlias, label: 'Staff Login' });
  }

  const openCheckout = () => {
    buildCheckoutCart();
    setDrawerOpen(false);
    navigate(paths.checkout);
  };

  const logout = () => {
    setDrawerOpen(false);
    if (session.staffToken) {
      logoutStaff();
    } else {
      clearCustomerSession();
      void purgeGalleryCaches().catch(() => undefined);
      navigate(paths.customerAuth);
    }
  };

  const navLinks = (onNavigate?: () => void) => (
    <>
      {links.map((link) => (
        <NavLink key={link.label} to={link.to} className="nav-link" onClick={onNavigate}>
          {link.label}
        </NavLink>
      ))}
      <NavLink to={paths.help} className="nav-link" onClick={onNavigate}>
        Support
      </NavLink>
    </>
  );

  return (
    <header className="site-header">
      <div className="container">
        <Link to={paths.home} className="logo" aria-label={`${name} home`}>
          <img src="/favicon.svg" alt="" width="32" height="32" />
          <span>{name}</span>
        </Link>
        <nav className="nav-links" aria-label="Main">
          {navLinks()}
        </nav>
        <div className="header-actions">
          {showCart ? (
            <Button variant="outline" onClick={openCheckout} aria-label={`Cart, ${count} ${count === 1 ? 'item' : 'items'}. Go to checkout`}>
              <CartIcon />
              <span className="cart-count" aria-hidden="true">
                {count}
              </span>
            </Button>
          ) : null}
          {loggedIn ? (
            <Button variant="ghost" className="desktop-only" onClick={logout}>
              Logout
            </Button>
          ) : null}
          <Button variant="ghost" className="menu-button" aria-label="Open menu" aria-haspopup="dialog" aria-expanded={drawerOpen} onClick={() => setDrawerOpen(true)}>
            <MenuIcon />
          </Button>
          {drawerOpen ? (
            <Suspense fallback={null}>
              <MobileDrawer open={drawerOpen} onOpenChange={setDrawerOpen}>
                <nav aria-label="Mobile" className="stack-tight">
                  <NavLink to={paths.home} className="nav-link" onClick={() => setDrawerOpen(false)}>
                    Home
                  </NavLink>
                  {navLinks(() => setDrawerOpen(false))}
                </nav>
                {showCart ? (
                  <Button variant="outline" onClick={openCheckout}>
                    Cart ({count})
                  </Button>
                ) : null}
                {loggedIn ? (
                  <Button variant="ghost" onClick={logout}>
                    Logout
                  </Button>
                ) : null}
                <Button variant="secondary" onClick={() => setDrawerOpen(false)}>
                  Close menu
                </Button>
              </MobileDrawer>
            </Suspense>
          ) : null}
        </div>
      </div>
    </header>
  );
}

function CartIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <circle cx="9" cy="20" r="1.5" />
      <circle cx="18" cy="20" r="1.5" />
      <path d="M2 3h3l2.6 12.4a1.5 1.5 0 0 0 1.5 1.1h8.8a1.5 1.5 0 0 0 1.5-1.1L21 7H6" />
    </svg>
  );
}

function MenuIcon() {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      <path d="M4 6h16M4 12h16M4 18h16" />
    </svg>
  );
}
