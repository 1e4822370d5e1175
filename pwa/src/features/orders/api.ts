/**
 * One order (the confirmation page: the whole order for its customer or the browser that placed
 * it, else only its statuses and total, docs/access.md) and the signed-in customer's orders.
 */
import { queryOptions } from '@tanstack/react-query';
import { ORDER_POLL_INTERVAL_MS } from '@contract/constants';
import type { Order, OrderSummary } from '@contract/orders';
import { apiRequest } from '../../lib/api-client';

export const orderKeys = {
  one: (id: string) => ['orders', id] as const,
  mine: ['customer', 'orders'] as const,
};

/** Re-fetched every 3 s while the payment is pending, also in a background tab. */
export const orderQuery = (id: string) =>
  queryOptions({
    queryKey: orderKeys.one(id),
    queryFn: ({ signal }) => apiRequest<Order | OrderSummary>(`/api/orders/${encodeURIComponent(id)}`, { signal, auth: 'customer' }),
    refetchInterval: (query) => (query.state.data?.paymentStatus === 'pending' && query.state.data.orderStatus !== 'cancelled' ? ORDER_POLL_INTERVAL_MS : false),
    refetchIntervalInBackground: true,
  });

export const customerOrdersQuery = () =>
  queryOptions({
    queryKey: orderKeys.mine,
    queryFn: ({ signal }) => apiRequest<Order[]>('/api/customer/orders', { signal, auth: 'customer' }),
  });

/**
 * Cancels an unpaid order: the signed-in customer's token, or the Idempotency-Key this browser
 * placed it with (docs/statuses.md#cancelled-by-the-parent).
 */
export const cancelOrder = (id: string, key: string | null = null) =>
  apiRequest<Order>(`/api/orders/${encodeURIComponent(id)}/cancel`, { method: 'POST', auth: 'customer', headers: key ? { 'Idempotency-Key': key } : {} });
