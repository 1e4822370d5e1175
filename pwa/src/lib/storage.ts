/**
 * The browser storage keys, with safe JSON access and change events. Local
 * storage can throw (private modes, quota), so every access is guarded: a broken storage must never
 * break a screen.
 */
import type { CustomerUser, StaffUser } from '@contract/auth';

export const LOCAL_KEYS = {
  token: 'token',
  user: 'user',
  customerToken: 'customerToken',
  customerUser: 'customerUser',
  cart: 'cart',
  checkoutCart: 'checkoutCart',
  currentSchool: 'currentSchool',
  currentAlbum: 'currentAlbum',
  /** Orders placed from this cart and not paid yet (lib/unpaid-order.ts). */
  unpaidOrders: 'unpaidOrders',
  /** The coupon entered in the cart, with its school (lib/cart-coupon.ts); mirrored to IndexedDB under the same name. */
  cartCoupon: 'cartCoupon',
} as const;
export type LocalKey = (typeof LOCAL_KEYS)[keyof typeof LOCAL_KEYS];

export const SESSION_KEYS = { authenticatedClasses: 'authenticatedClasses' } as const;

/** Broadcast whenever the cart changes. */
export const CART_UPDATED_EVENT = 'cartUpdated';
/** Same-tab notice for the other keys (the storage event only reaches other tabs). */
export const LOCAL_STATE_EVENT = 'localStateChanged';

export interface CartLine {
  id: string;
  photoId: number;
  albumId: number;
  photoName: string;
  photoPreview: string;
  productType: string;
  productName: string;
  productDescription: string;
  /** Pula, as a number with at most two decimals (25 or 12.5). */
  unitPrice: number;
  quantity: number;
  totalPrice: number;
  /** The school the photo is from: checkout makes one order per school. Older carts lack it. */
  schoolId?: number;
  schoolName?: string;
  /** The child the line is for (a code holder's gallery), to prefill the order's student name. */
  studentId?: number | null;
  studentName?: string;
  /**
   * A package line (docs/packages-and-coupons.md, "Filling a package"): productType is
   * `package:{id}`, productName the package's name, unitPrice its price, and photoId/albumId its
   * first photo. Older carts have no package lines, so the field is optional.
   */
  package?: CartPackage;
}

/** What a package line holds: its contents as shown, and the photos chosen for it. */
export interface CartPackage {
  packageId: number;
  /** The contents in the price list's order: "1 x 15x20 Print". */
  contents: { productId: number; name: string; quantity: number }[];
  /**
   * One photo for the whole package, or one per content row or per piece (in the same order;
   * `packageSlots()`). None for a package paid before picture day (docs/packages-and-coupons.md,
   * "Ordering before picture day"): its photos are chosen once the child's are online, and the
   * line's `studentId` names the child.
   */
  photos: { photoId: number; albumId: number; photoName: string }[];
}

/** A package line paid before picture day: no photos yet, its child named (`CartPackage.photos`). */
export const isPrepaidLine = (line: Pick<CartLine, 'package'>): boolean => line.package !== undefined && line.package.photos.length === 0;

export interface CheckoutCart {
  cart: CartLine[];
  schoolId: number;
  schoolName: string;
  albumName: string;
  totalAmount: number;
}

export interface NamedRef {
  id: number;
  name: string;
}

function area(kind: 'local' | 'session'): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export function readRaw(key: string, kind: 'local' | 'session' = 'local'): string | null {
  try {
    return area(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function readJson<T>(key: string, kind: 'local' | 'session' = 'local'): T | null {
  const raw = readRaw(key, kind);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

function notify(key: string): void {
  window.dispatchEvent(new CustomEvent(key === LOCAL_KEYS.cart ? CART_UPDATED_EVENT : LOCAL_STATE_EVENT, { detail: { key } }));
}

export function writeRaw(key: string, value: string, kind: 'local' | 'session' = 'local'): void {
  try {
    area(kind)?.setItem(key, value);
  } catch (err) {
    console.warn(`Could not save ${key}`, err);
  }
  notify(key);
}

export function writeJson(key: string, value: unknown, kind: 'local' | 'session' = 'local'): void {
  writeRaw(key, JSON.stringify(value), kind);
}

export function removeKeys(keys: readonly string[], kind: 'local' | 'session' = 'local'): void {
  for (const key of keys) {
    try {
      area(kind)?.removeItem(key);
    } catch {
      // Nothing stored, nothing to clear.
    }
  }
  for (const key of keys) notify(key);
}

/** Calls back on any change to the stored state, from this tab or another one. */
export function subscribeStorage(callback: () => void): () => void {
  window.addEventListener('storage', callback);
  window.addEventListener(CART_UPDATED_EVENT, callback);
  window.addEventListener(LOCAL_STATE_EVENT, callback);
  return () => {
    window.removeEventListener('storage', callback);
    window.removeEventListener(CART_UPDATED_EVENT, callback);
    window.removeEventListener(LOCAL_STATE_EVENT, callback);
  };
}

export const getStaffToken = () => readRaw(LOCAL_KEYS.token);
export const getCustomerToken = () => readRaw(LOCAL_KEYS.customerToken);
export const getStaffUser = () => readJson<StaffUser>(LOCAL_KEYS.user);

/** A logged-in photographer or admin: they have no cart. */
export function isStaffSession(): boolean {
  const role = getStaffUser()?.role;
  return Boolean(getStaffToken()) && (role === 'photographer' || role === 'admin');
}

export function setCustomerSession(token: string, user: CustomerUser): void {
  writeRaw(LOCAL_KEYS.customerToken, token);
  writeJson(LOCAL_KEYS.customerUser, user);
}

export function clearCustomerSession(): void {
  removeKeys([LOCAL_KEYS.customerToken, LOCAL_KEYS.customerUser]);
}

export function setStaffSession(token: string, user: StaffUser): void {
  writeRaw(LOCAL_KEYS.token, token);
  writeJson(LOCAL_KEYS.user, user);
}

export const CART_KEYS = [LOCAL_KEYS.cart, LOCAL_KEYS.currentSchool, LOCAL_KEYS.currentAlbum, LOCAL_KEYS.checkoutCart, LOCAL_KEYS.unpaidOrders, LOCAL_KEYS.cartCoupon] as const;
