/**
 * The cart mirror (docs/outreach.md, "Abandoned carts and unpaid orders"): a confirmed guardian's
 * cart is copied to the server, ids and quantities only, so a "still in your cart" e-mail can
 * reopen it on any device. Fire and forget: a change waits a moment for the next one (a parent
 * adding three products sends one request), nothing waits for the answer, a failure never reaches
 * the screen, and offline the last cart is sent when the phone is back online. Loaded on the first
 * cart change (lib/cart.ts), never during a first visit that only looks.
 */
import type { MirroredCartItem } from '@contract/outreach';
import { apiRequest, NetworkError } from './api-client';
import { cachedGuardianMe, fetchGuardianMe, isConfirmedGuardian } from './guardian';
import { isStaffSession, readRaw, writeRaw, type CartLine } from './storage';

/** How long a change waits for the next one before the cart is sent. */
export const MIRROR_DEBOUNCE_MS = 2000;
/** The last cart the server acknowledged in this session: the same cart is not sent twice. */
const SENT_KEY = 'cartMirrored';

/**
 * What the server keeps of a cart: photo, product and quantity per line, in the cart's order.
 * Package lines are not mirrored: a mirrored line is one photo and one product, and a package holds
 * several photos (docs/packages-and-coupons.md, "Filling a package"); a restored cart has its
 * single products only.
 */
export function mirroredItems(lines: readonly CartLine[]): MirroredCartItem[] {
  return lines.filter((line) => line.quantity >= 1 && !line.package).map((line) => ({ photoId: line.photoId, productType: line.productType, quantity: line.quantity }));
}

let timer: ReturnType<typeof setTimeout> | null = null;
let pending: MirroredCartItem[] | null = null;
let waitingForNetwork = false;

/** Called with the cart after every change; returns at once. */
export function scheduleCartMirror(lines: readonly CartLine[]): void {
  pending = mirroredItems(lines);
  if (timer !== null) clearTimeout(timer);
  timer = setTimeout(() => void flushCartMirror(), MIRROR_DEBOUNCE_MS);
}

/** Sends the waiting cart now (tests, and the page being hidden). */
export async function flushCartMirror(keepalive = false): Promise<void> {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  const items = pending;
  pending = null;
  // Staff have no cart of their own (lib/storage.ts): nothing of theirs is mirrored.
  if (items === null || isStaffSession()) return;
  const body = JSON.stringify({ items });
  if (readRaw(SENT_KEY, 'session') === body) return;
  try {
    const me = cachedGuardianMe() ?? (await fetchGuardianMe());
    if (!isConfirmedGuardian(me)) return;
    await apiRequest('/api/guardians/cart', { method: 'PUT', body: { items }, auth: 'none', keepalive });
    writeRaw(SENT_KEY, body, 'session');
  } catch (err) {
    // Offline: the newest cart goes once the phone is back (unless a newer change came meanwhile).
    if (err instanceof NetworkError) {
      pending ??= items;
      retryWhenOnline();
    }
  }
}

function retryWhenOnline(): void {
  if (waitingForNetwork) return;
  waitingForNetwork = true;
  window.addEventListener(
    'online',
    () => {
      waitingForNetwork = false;
      void flushCartMirror();
    },
    { once: true },
  );
}

// A parent who adds a photo and closes the tab at once still has the cart mirrored.
if (typeof window !== 'undefined') window.addEventListener('pagehide', () => void flushCartMirror(true));
