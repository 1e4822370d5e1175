/** Coupons as staff manage them (docs/packages-and-coupons.md, "Coupons"): list, create, edit, delete. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Coupon } from '@contract/coupons';
import { apiRequest } from '../../../lib/api-client';
import { staffKeys } from './keys';

/**
 * What the coupon form sends: the fields as staff typed them (`value` a whole percent or Pula,
 * `minOrder` Pula, dates YYYY-MM-DD); the API turns amounts into thebe itself.
 */
export interface CouponBody {
  code: string;
  schoolId: number | null;
  kind: Coupon['kind'];
  value: string;
  minOrder: string | null;
  startsOn: string | null;
  endsOn: string | null;
  maxUses: number | null;
  oncePer: Coupon['oncePer'];
  excludesPackages: boolean;
}

export const couponsQuery = () =>
  queryOptions({
    queryKey: staffKeys.coupons,
    queryFn: ({ signal }) => apiRequest<Coupon[]>('/api/coupons', { auth: 'staff', signal }),
  });

export const useCoupons = () => useQuery(couponsQuery());

/**
 * Creates a coupon (`id` null) or edits one. An edit sends every field of the form, so what is saved
 * is exactly what the form shows.
 */
export function useSaveCoupon() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: CouponBody }) =>
      apiRequest<Coupon>(id === null ? '/api/coupons' : `/api/coupons/${id}`, { method: id === null ? 'POST' : 'PATCH', body, auth: 'staff' }),
    onSuccess: () => client.invalidateQueries({ queryKey: staffKeys.coupons }),
  });
}

export function useDeleteCoupon() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<{ message: string }>(`/api/coupons/${id}`, { method: 'DELETE', auth: 'staff' }),
    onSuccess: () => client.invalidateQueries({ queryKey: staffKeys.coupons }),
  });
}
