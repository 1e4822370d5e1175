/** The audit log (admin only on the server: a photographer gets 403 ADMIN_ONLY; docs/accounts.md, "The audit log"). */
import { useInfiniteQuery } from '@tanstack/react-query';
import { AUDIT_PAGE_DEFAULT, type AuditPage } from '@contract/audit';
import { apiRequest } from '../../../lib/api-client';
import { staffKeys } from './keys';

export const useAuditLog = (enabled: boolean) =>
  useInfiniteQuery({
    queryKey: staffKeys.auditLog,
    enabled,
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<AuditPage>(`/api/audit-log?limit=${AUDIT_PAGE_DEFAULT}${pageParam === null ? '' : `&before=${pageParam}`}`, { auth: 'staff', signal }),
    getNextPageParam: (last) => last.nextBefore,
  });
