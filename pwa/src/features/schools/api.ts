/** Schools for parents: the dropdown list, one school by slug, and the password check (docs/access.md). */
import { queryOptions } from '@tanstack/react-query';
import type { PublicSchool, SchoolBySlug } from '@contract/schools';
import { apiRequest, type AuthMode } from '../../lib/api-client';

/**
 * A parent's access is the gallery cookie; a customer token adds nothing here, and leaving it off
 * lets the service worker keep these answers for offline use. Staff still send theirs.
 */
const GALLERY_AUTH: AuthMode = 'staff';
/**
 * Asked even when the browser says it is offline: the service worker may answer from its cache.
 * Without a cached answer the call fails at once (no retries) instead of waiting for a network.
 */
const GALLERY_NETWORK_MODE = 'offlineFirst' as const;

export const schoolKeys = {
  list: ['schools', 'public'] as const,
  bySlug: (slug: string) => ['schools', 'slug', slug] as const,
};

export const schoolsQuery = () =>
  queryOptions({
    queryKey: schoolKeys.list,
    queryFn: ({ signal }) => apiRequest<PublicSchool[]>('/api/schools', { signal, auth: GALLERY_AUTH }),
    meta: { persist: true },
    networkMode: GALLERY_NETWORK_MODE,
  });

export const schoolBySlugQuery = (slug: string) =>
  queryOptions({
    queryKey: schoolKeys.bySlug(slug),
    queryFn: ({ signal }) => apiRequest<SchoolBySlug>(`/api/schools/${encodeURIComponent(slug)}`, { signal, auth: GALLERY_AUTH }),
    meta: { persist: true },
    networkMode: GALLERY_NETWORK_MODE,
  });

export interface VerifySchoolResponse {
  success: true;
  school: PublicSchool;
}

export const verifySchoolPassword = (slug: string, password: string) =>
  apiRequest<VerifySchoolResponse>(`/api/schools/${encodeURIComponent(slug)}/verify`, { method: 'POST', body: { password } });
