import { PROCESSING_ORDER_STATUSES } from '@contract/constants';
import { decimalToThebe, formatPula } from '@contract/money';
import type { Order } from '@contract/orders';

export interface OrderSummary {
  total: number;
  pending: number;
  processing: number;
  delivered: number;
  /** Completed payments only, as P0.00. */
  revenue: string;
}

export function summarise(orders: readonly Order[]): OrderSummary {
  let revenue = 0;
  for (const order of orders) if (order.paymentStatus === 'completed') revenue += decimalToThebe(order.totalAmount) ?? 0;
  return {
    total: orders.length,
    pending: orders.filter((order) => order.orderStatus === 'pending').length,
    processing: orders.filter((order) => PROCESSING_ORDER_STATUSES.includes(order.orderStatus)).length,
    delivered: orders.filter((order) => order.orderStatus === 'delivered').length,
    revenue: formatPula(revenue, 'thebe'),
  };
}

/** Search by customer, student, e-mail or order number, ignoring case. */
export function matchesSearch(order: Order, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [order.customerName, order.studentName, order.customerEmail, order.id].some((value) => value.toLowerCase().includes(needle));
}
