/**
 * A placed order's lines as the parent chose them: single products and packages, each package with
 * its contents (docs/packages-and-coupons.md, "Where packages and discounts show"). Shared by the
 * confirmation e-mail, My Orders, order management and the CSV export, so they all group alike.
 */
import type { Order, OrderItem, OrderPackage } from './orders';

export type OrderEntry = { kind: 'item'; item: OrderItem } | { kind: 'package'; pkg: OrderPackage; contents: OrderItem[] };

/**
 * Single products first, in the order they were placed, then the packages in theirs; an item
 * naming a package the order does not hold (never written so) is shown as a single product.
 */
export function orderEntries(order: Pick<Order, 'items' | 'packages'>): OrderEntry[] {
  const packageIds = new Set(order.packages.map((pkg) => pkg.id));
  const inPackage = (item: OrderItem) => item.packageLineId !== null && packageIds.has(item.packageLineId);
  return [
    ...order.items.filter((item) => !inPackage(item)).map((item) => ({ kind: 'item' as const, item })),
    ...order.packages.map((pkg) => ({ kind: 'package' as const, pkg, contents: order.items.filter((item) => item.packageLineId === pkg.id) })),
  ];
}

/** The order has a sibling discount or a coupon: its subtotal and discounts are shown above the total. */
export const hasDiscounts = (order: Pick<Order, 'siblingDiscount' | 'couponDiscount' | 'couponCode'>): boolean =>
  Number(order.siblingDiscount) > 0 || Number(order.couponDiscount) > 0 || order.couponCode !== null;

/**
 * The package's child, when naming it tells something: the order is for other children too (the
 * package's child differs from the order's student name).
 */
export const packageChild = (pkg: Pick<OrderPackage, 'studentName'>, order: Pick<Order, 'studentName'>): string | null =>
  pkg.studentName !== order.studentName ? pkg.studentName : null;
