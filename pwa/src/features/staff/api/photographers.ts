/** Staff accounts (admin only on the server: a photographer gets 403). */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PhotographerCreateInput, StaffUser } from '@contract/auth';
import { apiRequest } from '../../../lib/api-client';
import { staffKeys } from './keys';

export const photographersQuery = () =>
  queryOptions({
    queryKey: staffKeys.photographers,
    queryFn: ({ signal }) => apiRequest<StaffUser[]>('/api/photographers', { auth: 'staff', signal }),
  });

export const usePhotographers = (enabled: boolean) => useQuery({ ...photographersQuery(), enabled });

export function useCreatePhotographer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: PhotographerCreateInput) => apiRequest<StaffUser>('/api/photographers', { method: 'POST', body: input, auth: 'staff' }),
    onSuccess: () => client.invalidateQueries({ queryKey: staffKeys.photographers }),
  });
}

export function useDeletePhotographer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<{ message: string }>(`/api/photographers/${id}`, { method: 'DELETE', auth: 'staff' }),
    onSuccess: () => client.invalidateQueries({ queryKey: staffKeys.photographers }),
  });
}

/** Signs another staff member out of every device (admin only). */
export function useRevokeSessions() {
  return useMutation({
    mutationFn: (id: number) => apiRequest<{ message: string }>(`/api/photographers/${id}/sign-out`, { method: 'POST', auth: 'staff' }),
  });
}
