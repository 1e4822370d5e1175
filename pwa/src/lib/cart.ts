/**
 * The cart: pure functions (reducer, totals) plus the store that writes the `cart` key,
 * broadcasts cartUpdated and mirrors every change to IndexedDB.
 */
import { useSyncExternalStore } from 'react';
import { afterPaint } from './after-paint';
import { CART_KEYS, LOCAL_KEYS, readJson, readRaw, removeKeys, subscribeStorage, writeJson, type CartLine } from './storage';

export type CartAction =
  | { type: 'add'; lines: CartLine[] }
  | { type: 'remove'; id: string }
  | { type: 'clear' }
  /** Lines replaced by id (re-priced); lines not named stay as they are. */
  | { type: 'update'; lines: CartLine[] };

export function cartReducer(lines: readonly CartLine[], action: CartAction): CartLine[] {
  switch (action.type) {
    case 'add':
      return [...lines, ...action.lines];
    case 'remove':
      return lines.filter((line) => line.id !== action.id);
    case 'clear':
      return [];
    case 'update': {
      const updated = new Map(action.lines.map((line) => [line.id, line]));
      return lines.map((line) => updated.get(line.id) ?? line);
    }
  }
}

/** Money is added in whole thebe so 0.1 + 0.2 never shows up in a total. */
export const toThebe = (pula: number): number => Math.round(pula * 100);
export const lineTotal = (unitPrice: number, quantity: number): number => (toThebe(unitPrice) * quantity) / 100;
export const cartTotal = (lines: readonly CartLine[]): number => lines.reduce((sum, line) => sum + toThebe(line.totalPrice), 0) / 100;
/** The cart button's count: a package counts its contents (a package of three products is 3 items). */
export const cartCount = (lines: readonly CartLine[]): number => lines.reduce((sum, line) => sum + (line.package ? Math.max(1, line.package.contents.length) : 1), 0);

function isCartLine(value: unknown): value is CartLine {
  const line = value as CartLine;
  return typeof line === 'object' && line !== null && typeof line.id === 'string' && typeof line.photoId === 'number' && typeof line.quantity === 'number';
}

export function readCart(): CartLine[] {
  const stored = readJson<unknown>(LOCAL_KEYS.cart);
  return Array.isArray(stored) ? stored.filter(isCartLine) : [];
}

function mirror(lines: readonly CartLine[]): void {
  void import('./db')
    .then(async ({ saveCartLines, setMeta }) => {
      await saveCartLines(lines);
      // The coupon goes with the cart (lib/cart-coupon.ts): an emptied cart has none.
      await setMeta(LOCAL_KEYS.cartCoupon, readRaw(LOCAL_KEYS.cartCoupon));
      // A different cart is a different order: a retry must not replay the previous attempt.
      await setMeta(CHECKOUT_KEY_META, null);
    })
    .catch((err: unknown) => console.warn('Could not mirror the cart to IndexedDB', err));
}

/** A confirmed guardian's cart is copied to the server (lib/cart-mirror.ts), loaded on the first change. */
function mirrorToServer(lines: readonly CartLine[]): void {
  void import('./cart-mirror').then(({ scheduleCartMirror }) => scheduleCartMirror(lines)).catch(() => undefined);
}

export const CHECKOUT_KEY_META = 'checkoutIdempotencyKey';

/** A line with another quantity (1 to 10) and its total again. */
export function withQuantity(line: CartLine, quantity: number): CartLine {
  return { ...line, quantity, totalPrice: lineTotal(line.unitPrice, quantity) };
}

export function dispatchCart(action: CartAction): CartLine[] {
  const next = cartReducer(readCart(), action);
  writeJson(LOCAL_KEYS.cart, next);
  if (next.length === 0) removeKeys([LOCAL_KEYS.cartCoupon]);
  // The copies wait for the tap's paint: their code (Dexie, the server mirror) is loaded and run
  // then, not between the tap and its paint (docs/performance.md, "The first taps"). They copy the
  // cart as it is by then, so a cart emptied meanwhile (clearCartKeys after an order, a staff
  // sign-in) is never written back by a copy that was waiting.
  afterPaint(() => {
    const current = readCart();
    mirror(current);
    mirrorToServer(current);
  });
  return next;
}

/** Clears cart, current school and album and checkout cart (staff sessions, after an order). */
export function clearCartKeys(): void {
  if (CART_KEYS.every((key) => readRaw(key) === null)) return;
  removeKeys(CART_KEYS);
  mirror([]);
  mirrorToServer([]);
}

/**
 * The empty cart the prerender was built with, and the snapshot of a storage without a cart: the
 * same array, so a visitor without a cart hydrates without the extra synchronous render React
 * makes when the two differ.
 */
const NO_LINES: CartLine[] = [];
let cachedRaw: string | null = null;
let cachedLines: CartLine[] = NO_LINES;
function snapshot(): CartLine[] {
  const raw = readRaw(LOCAL_KEYS.cart);
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedLines = raw === null ? NO_LINES : readCart();
  }
  return cachedLines;
}

/** Empty on the server and while a prerendered page hydrates (it was built without a cart), then the stored cart. */
export function useCart(): CartLine[] {
  return useSyncExternalStore(subscribeStorage, snapshot, () => NO_LINES);
}
