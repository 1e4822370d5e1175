/** Classes (albums) and their photos: create, edit, delete, list photos, bulk-delete photos. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlbumStatus } from '@contract/constants';
import type { AlbumResponse, PublishResponse } from '@contract/albums';
import type { Photo } from '@contract/photos';
import { apiRequest } from '../../../lib/api-client';
import { staffKeys } from './keys';

export interface ClassInput {
  name: string;
  schoolId: number;
  password?: string;
}

export const albumPhotosQuery = (albumId: number) =>
  queryOptions({
    queryKey: staffKeys.albumPhotos(albumId),
    queryFn: ({ signal }) => apiRequest<Photo[]>(`/api/albums/${albumId}/photos`, { auth: 'staff', signal }),
  });

export const useAlbumPhotos = (albumId: number | null) => useQuery({ ...albumPhotosQuery(albumId ?? 0), enabled: albumId !== null });

export const createClass = (input: ClassInput) => apiRequest<AlbumResponse>('/api/albums', { method: 'POST', body: input, auth: 'staff' });

function useSchoolsRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: staffKeys.schools });
}

export function useCreateClass() {
  const refresh = useSchoolsRefresh();
  return useMutation({ mutationFn: createClass, onSuccess: refresh });
}

export function useUpdateClass() {
  const refresh = useSchoolsRefresh();
  return useMutation({
    /** `password` absent keeps the class's password, null removes it, a text replaces it. */
    mutationFn: ({ id, name, password }: { id: number; name: string; password?: string | null }) =>
      apiRequest<AlbumResponse>(`/api/albums/${id}`, { method: 'PATCH', body: password === undefined ? { name } : { name, password }, auth: 'staff' }),
    onSuccess: refresh,
  });
}

export function useDeleteClass() {
  const refresh = useSchoolsRefresh();
  return useMutation({
    mutationFn: (id: number) => apiRequest<{ message: string }>(`/api/albums/${id}`, { method: 'DELETE', auth: 'staff' }),
    onSuccess: refresh,
  });
}

export function useDeletePhotos(albumId: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (photoIds: number[]) => apiRequest<{ deletedCount: number }>('/api/photos/bulk-delete', { method: 'DELETE', body: { photoIds }, auth: 'staff' }),
    onSuccess: () =>
      Promise.all([
        // The class's photos, tray, review sheet and roster counts.
        client.invalidateQueries({ queryKey: staffKeys.album(albumId ?? 0) }),
        client.invalidateQueries({ queryKey: staffKeys.schools }),
        client.invalidateQueries({ queryKey: staffKeys.stats }),
      ]),
  });
}

/** After publishing or a status change: the school's class list (status, counts) and everything of the class. */
function useClassRefresh(albumId: number) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: staffKeys.schools }),
      client.invalidateQueries({ queryKey: staffKeys.album(albumId) }),
      client.invalidateQueries({ queryKey: staffKeys.stats }),
    ]);
}

/**
 * "Publish class" on a draft, "Release N new photos" on a published class: the class is published
 * and every photo waiting for review is shown to its family.
 */
export function usePublishClass(albumId: number) {
  const refresh = useClassRefresh(albumId);
  return useMutation({
    mutationFn: () => apiRequest<PublishResponse>(`/api/albums/${albumId}/publish`, { method: 'POST', auth: 'staff' }),
    onSuccess: refresh,
  });
}

/**
 * A class's status ("Back to draft") or its automatic publication time: `publishAt` is ISO 8601
 * with its zone, or null to publish by hand.
 */
export function useClassPublishing(albumId: number) {
  const refresh = useClassRefresh(albumId);
  return useMutation({
    /** `confirm`: staff read the PHOTO_SOLD warning before putting the class back to draft (docs/access.md, "Moving a sold photo"). */
    mutationFn: (changes: { status?: AlbumStatus; publishAt?: string | null; archived?: boolean; confirm?: true }) =>
      apiRequest<AlbumResponse>(`/api/albums/${albumId}`, { method: 'PATCH', body: changes, auth: 'staff' }),
    onSuccess: refresh,
  });
}
