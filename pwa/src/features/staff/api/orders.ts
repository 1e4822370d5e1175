/** Orders for staff, filtered by status and school, and the status change (docs/statuses.md). */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrderStatus } from '@contract/constants';
import type { Order } from '@contract/orders';
import { apiRequest } from '../../../lib/api-client';
import { staffKeys } from './keys';

export interface OrderFilters {
  status: string;
  school: string;
}

export const ordersQuery = (filters: OrderFilters) =>
  queryOptions({
    queryKey: staffKeys.orders(filters),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams();
      if (filters.status !== 'all') params.set('status', filters.status);
      if (filters.school !== 'all') params.set('school', filters.school);
      const query = params.toString();
      return apiRequest<Order[]>(`/api/orders${query ? `?${query}` : ''}`, { auth: 'staff', signal });
    },
  });

export const useOrders = (filters: OrderFilters) => useQuery(ordersQuery(filters));

export function useUpdateOrderStatus() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, orderStatus }: { id: string; orderStatus: OrderStatus }) =>
      apiRequest<Order>(`/api/orders/${encodeURIComponent(id)}`, { method: 'PUT', body: { orderStatus }, auth: 'staff' }),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: staffKeys.ordersAll }), client.invalidateQueries({ queryKey: staffKeys.stats })]),
  });
}
