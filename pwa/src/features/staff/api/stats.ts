import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardStats } from '@contract/dashboard';
import { apiRequest } from '../../../lib/api-client';
import { staffKeys } from './keys';

export const statsQuery = () =>
  queryOptions({
    queryKey: staffKeys.stats,
    queryFn: ({ signal }) => apiRequest<DashboardStats>('/api/dashboard/stats', { auth: 'staff', signal }),
  });

export const useDashboardStats = () => useQuery(statsQuery());
