/**
 * An order placed from the cart and not paid yet (docs/payments.md#leaving-the-card-page). The
 * cart keeps its lines until the order is paid, so the back button from the card page, a declined
 * card or a closed tab loses nothing; the checkout then offers to pay this order or to replace it.
 * The Idempotency-Key the order was placed with is what lets this browser cancel it.
 */
import { dispatchCart, readCart } from './cart';
import { saveCartCoupon } from './cart-coupon';
import { LOCAL_KEYS, readJson, writeJson, type CartLine } from './storage';

export const cartSignature = (lines: readonly CartLine[]): string =>
  JSON.stringify(lines.map((line) => [line.id, line.productType, line.quantity, line.unitPrice]).sort());

export interface UnpaidOrderDetails {
  customerName: string;
  customerEmail: string;
  customerPhone: string | null;
  studentName: string;
  notes: string | null;
}

export interface UnpaidOrder {
  orderId: string;
  schoolId: number;
  /** The cart lines the order was placed with. */
  lineIds: string[];
  /** What those lines were (ids, products, quantities, prices): a changed cart is a new order. */
  signature: string;
  /** The order's Idempotency-Key, or null when it was placed on another device. */
  key: string | null;
  details: UnpaidOrderDetails;
}

export function readUnpaidOrders(): UnpaidOrder[] {
  const stored = readJson<unknown>(LOCAL_KEYS.unpaidOrders);
  return Array.isArray(stored) ? (stored as UnpaidOrder[]).filter((entry) => typeof entry?.orderId === 'string' && Array.isArray(entry.lineIds)) : [];
}

export const unpaidOrderFor = (schoolId: number): UnpaidOrder | null => readUnpaidOrders().find((entry) => entry.schoolId === schoolId) ?? null;

/** One unpaid order per school: a newer one replaces the record of the older. */
export function rememberUnpaidOrder(order: UnpaidOrder): void {
  writeJson(LOCAL_KEYS.unpaidOrders, [...readUnpaidOrders().filter((entry) => entry.schoolId !== order.schoolId && entry.orderId !== order.orderId), order]);
}

export function forgetUnpaidOrder(orderId: string): void {
  writeJson(LOCAL_KEYS.unpaidOrders, readUnpaidOrders().filter((entry) => entry.orderId !== orderId));
}

/** The order is paid: its lines leave the cart (the other schools' lines stay) and the record goes. */
export function settlePaidOrder(orderId: string): void {
  const record = readUnpaidOrders().find((entry) => entry.orderId === orderId);
  if (!record) return;
  const paid = new Set(record.lineIds);
  for (const line of readCart()) if (paid.has(line.id)) dispatchCart({ type: 'remove', id: line.id });
  // The coupon was used by this order: it does not stay for the school's next one.
  if (readJson<{ schoolId?: number }>(LOCAL_KEYS.cartCoupon)?.schoolId === record.schoolId) saveCartCoupon(record.schoolId, null);
  forgetUnpaidOrder(orderId);
}
