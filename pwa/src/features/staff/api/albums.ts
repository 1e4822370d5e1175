/** Classes (albums) and their photos: create, edit, delete, list photos, bulk-delete photos. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlbumResponse } from '@contract/albums';
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
        client.invalidateQueries({ queryKey: staffKeys.albumPhotos(albumId ?? 0) }),
        client.invalidateQueries({ queryKey: staffKeys.schools }),
        client.invalidateQueries({ queryKey: staffKeys.stats }),
      ]),
  });
}
