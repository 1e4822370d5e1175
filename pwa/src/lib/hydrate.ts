/**
 * Start-up reconciliation between the storage keys and IndexedDB: the keys win when present (they
 * are what the screens wrote last); when a key is gone (closed tab for session storage, cleared
 * site data for local storage) the durable copy restores it. Staff never get a cart back.
 */
import { LOCAL_KEYS, SESSION_KEYS, isStaffSession, readRaw, writeJson, writeRaw } from './storage';
import { readCart } from './cart';
import { readUnlockedClasses } from './unlocked-classes';
import { getMeta, loadCartLines, loadUnlockedClasses, saveCartLines, saveUnlockedClasses, setMeta } from './db';
import { hydrateUnlockedChildren } from './unlocked-children';

export async function hydrateLocalState(): Promise<void> {
  if (isStaffSession()) {
    await saveCartLines([]);
    await setMeta(LOCAL_KEYS.cartCoupon, null);
  } else if (readRaw(LOCAL_KEYS.cart) === null) {
    const lines = await loadCartLines();
    if (lines.length > 0) {
      // The cart's coupon comes back with it (lib/cart-coupon.ts); the checkout quotes it again.
      const coupon = await getMeta(LOCAL_KEYS.cartCoupon);
      if (coupon !== null && readRaw(LOCAL_KEYS.cartCoupon) === null) writeRaw(LOCAL_KEYS.cartCoupon, coupon);
      writeJson(LOCAL_KEYS.cart, lines);
    }
  } else {
    await saveCartLines(readCart());
    await setMeta(LOCAL_KEYS.cartCoupon, readRaw(LOCAL_KEYS.cartCoupon));
  }

  if (readRaw(SESSION_KEYS.authenticatedClasses, 'session') === null) {
    const ids = await loadUnlockedClasses();
    if (ids.length > 0) writeJson(SESSION_KEYS.authenticatedClasses, ids, 'session');
  } else {
    await saveUnlockedClasses(readUnlockedClasses());
  }

  await hydrateUnlockedChildren();
}
