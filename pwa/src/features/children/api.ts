/** Private student codes for families: unlock a child, list this device's children, forget one. */
import { queryOptions } from '@tanstack/react-query';
import type { StudentVerifyResponse, UnlockedStudent } from '@contract/students';
import { apiRequest } from '../../lib/api-client';

export const childrenKeys = {
  unlocked: ['students', 'unlocked'] as const,
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
