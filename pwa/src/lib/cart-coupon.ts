/**
 * The coupon entered in the cart (docs/packages-and-coupons.md, "A coupon stays with the cart"):
 * kept with the cart, in the `cartCoupon` key and its IndexedDB mirror, for the school it was
 * entered for, so it survives navigation, a reload, the gallery and a spell offline. It is only
 * ever a code: the checkout asks the server to quote it again each time, and the server's total is
 * the one shown and charged. Emptying the cart, or paying the order that used it, drops it.
 */
import { useSyncExternalStore } from 'react';
import { LOCAL_KEYS, readJson, readRaw, removeKeys, subscribeStorage, writeJson } from './storage';

export interface CartCoupon {
  code: string;
  schoolId: number;
}

/** The code kept for this school's cart, or null. */
export function readCartCoupon(schoolId: number): string | null {
  const stored = readJson<Partial<CartCoupon>>(LOCAL_KEYS.cartCoupon);
  return stored && typeof stored.code === 'string' && stored.code !== '' && stored.schoolId === schoolId ? stored.code : null;
}

/** Keeps (or, with null, drops) the cart's coupon, and mirrors it to IndexedDB. */
export function saveCartCoupon(schoolId: number, code: string | null): void {
  if (code === null) removeKeys([LOCAL_KEYS.cartCoupon]);
  else writeJson(LOCAL_KEYS.cartCoupon, { code, schoolId } satisfies CartCoupon);
  void import('./db')
    .then(({ setMeta }) => setMeta(LOCAL_KEYS.cartCoupon, readRaw(LOCAL_KEYS.cartCoupon)))
    .catch((err: unknown) => console.warn('Could not mirror the coupon to IndexedDB', err));
}

/** The kept code for this school's cart, following changes from this tab and others. */
export function useCartCoupon(schoolId: number): string | null {
  return useSyncExternalStore(
    subscribeStorage,
    () => readCartCoupon(schoolId),
    () => null,
  );
}
