/**
 * The checkout route (docs/payments.md, "Offline"). The checkout's code is its own chunk, fetched
 * when a parent has something in the cart and kept by the service worker. When it cannot be had
 * (offline, and this version's checkout was never fetched on this device: a first visit that went
 * offline at once, an update, evicted storage) the route does not fail: it shows the cart from this
 * device and says that paying needs a connection. Back online, the code is fetched again and the
 * checkout takes over, with no reload. Small on purpose: it is part of the entry.
 */
import { useEffect, useState, type ComponentType } from 'react';
import { Link } from 'react-router-dom';
import { OFFLINE_CART_MSG } from '@contract/offline-cart';
import { PageSpinner } from '../components/ui/spinner';
import { cartTotal, toThebe, useCart } from '../lib/cart';
import { useTitle } from '../lib/use-title';
import { paths } from '../lib/paths';

type Screen = { Checkout: ComponentType };
/** Once loaded in this page, the checkout opens at once the next time. */
let loaded: Screen | null = null;

let loading: Promise<Screen> | null = null;

/**
 * The checkout's code, one fetch at a time: the header's early fetch (a cart with something in it)
 * and this route share it, and a failed one is forgotten so the next call asks again. The import
 * is awaited inside try/catch on purpose: the bundler wraps `import()` in its preload helper, which
 * first loads the chunk's styles, and handlers chained onto `import(...)` itself end up inside that
 * wrapper. Offline, the styles fail first, so such handlers never run: the route stayed on its
 * spinner for good (a cold start at /checkout) instead of showing the offline cart.
 */
export function loadCheckout(): Promise<Screen> {
  loading ??= (async () => {
    try {
      const module = await import('./routes/checkout');
      loaded = { Checkout: module.default };
      return loaded;
    } catch (err) {
      loading = null;
      throw err;
    }
  })();
  return loading;
}

/** How often the code is asked for again while it could not be had (a phone may be "online" without a network). */
const RETRY_MS = 5000;

export function CheckoutRoute() {
  const [screen, setScreen] = useState<Screen | null>(loaded);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (screen) return;
    let live = true;
    loadCheckout().then(
      (module) => live && setScreen(module),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [screen, attempt]);
  // Asked again when the device says it is back online, and every few seconds until it arrives (a
  // phone can say it is online without a network, and an emulated one never says it went offline).
  // Chromium fetches a module again after a failed dynamic import.
  useEffect(() => {
    if (!failed || screen) return;
    const retry = () => setAttempt((count) => count + 1);
    const timer = window.setInterval(retry, RETRY_MS);
    window.addEventListener('online', retry);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('online', retry);
    };
  }, [failed, screen]);
  if (screen) return <screen.Checkout />;
  return failed ? <OfflineCart /> : <PageSpinner />;
}

/** "P25.00" from whole thebe, as formatPula writes it (kept out of the entry). */
const money = (pula: number) => `P${(toThebe(pula) / 100).toFixed(2)}`;

/** The cart as this device keeps it, read-only, with why it cannot be paid now. */
function OfflineCart() {
  useTitle('Checkout');
  const lines = useCart();
  return (
    <div className="container page page-medium">
      <h1>Complete Your Order</h1>
      <div className="alert alert-warn" role="status">
        <strong>{OFFLINE_CART_MSG.title}</strong>
        <p style={{ margin: 0 }}>{OFFLINE_CART_MSG.cart}</p>
      </div>
      {lines.length > 0 ? (
        <section aria-label="Your cart">
          <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {lines.map((line) => (
              <li className="cart-line" key={line.id}>
                <div className="grow">
                  <strong>{line.productName}</strong>{' '}
                  <span className="muted" style={{ display: 'block', fontSize: '0.875rem' }}>
                    {line.photoName} · {line.quantity} × {money(line.unitPrice)}
                  </span>
                </div>{' '}
                <span>{money(line.totalPrice)}</span>
              </li>
            ))}
          </ul>
          <div className="total-row">
            <span>{OFFLINE_CART_MSG.total}</span> <span>{money(cartTotal(lines))}</span>
          </div>
        </section>
      ) : null}
      <p>
        <Link to={paths.home}>Browse Photos</Link>
      </p>
    </div>
  );
}
