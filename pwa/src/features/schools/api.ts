/** Schools for parents: the dropdown list, one school by slug, and the password check (D3). */
import { queryOptions } from '@tanstack/react-query';
import type { PublicSchool, SchoolBySlug } from '@contract/schools';
import { apiRequest } from '../../lib/api-client';

export const schoolKeys = {
  list: ['schools', 'public'] as const,
  bySlug: (slug: string) => ['schools', 'slug', slug] as const,
};

export const schoolsQuery = () =>
  queryOptions({
    queryKey: schoolKeys.list,
    queryFn: ({ signal }) => apiRequest<PublicSchool[]>('/api/schools', { signal }),
    meta: { persist: true },
  });

export const schoolBySlugQuery = (slug: string) =>
  queryOptions({
    queryKey: schoolKeys.bySlug(slug),
    queryFn: ({ signal }) => apiRequest<SchoolBySlug>(`/api/schools/${encodeURIComponent(slug)}`, { signal }),
    meta: { persist: true },
  });

export interface VerifySchoolResponse {
  success: true;
  school: PublicSchool;
}

export const verifySchoolPassword = (slug: string, password: string) =>
  apiRequest<VerifySchoolResponse>(`/api/schools/${encodeURIComponent(slug)}/verify`, { method: 'POST', body: { password } });
