/** Private student codes for families: unlock a child, list this device's children, forget one. */
import { queryOptions } from '@tanstack/react-query';
import { isRemovedStudents } from '@contract/child-removed';
import type { StudentVerifyResponse, UnlockedStudent } from '@contract/students';
import { apiRequest } from '../../lib/api-client';

export const childrenKeys = {
  unlocked: ['students', 'unlocked'] as const,
  removed: ['students', 'removed'] as const,
};

export const verifyStudentCode = (code: string) =>
  apiRequest<StudentVerifyResponse>('/api/students/verify', { method: 'POST', body: { code }, auth: 'none' });

/** What the server's grant still holds (a cookie can expire; an erased child drops out). */
export const unlockedChildrenQuery = () =>
  queryOptions({
    queryKey: childrenKeys.unlocked,
    queryFn: ({ signal }) => apiRequest<UnlockedStudent[]>('/api/students/unlocked', { signal, auth: 'none' }),
  });

export const forgetChildAccess = (studentId: number) =>
  apiRequest<{ success: boolean }>(`/api/students/${studentId}/access`, { method: 'DELETE', auth: 'none' });

/** The children this browser held that were erased at the school's request (docs/access.md, "What the family of an erased child sees"). */
export const removedChildrenQuery = () =>
  queryOptions({
    queryKey: childrenKeys.removed,
    queryFn: async ({ signal }) => {
      const answer = await apiRequest<unknown>('/api/students/removed', { signal, auth: 'none' });
      // Part of the gallery's first download: checked by hand, not with zod.
      if (!isRemovedStudents(answer)) throw new Error('Unexpected answer from /api/students/removed');
      return answer.studentIds;
    },
  });
