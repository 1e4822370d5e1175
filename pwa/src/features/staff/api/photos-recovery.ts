/** Missing originals: the report, the database cleanup and restoration by upload (docs/images.md). */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MissingPhotosReport, RestoreResponse } from '@contract/photos';
import { apiRequest } from '../../../lib/api-client';
import { staffKeys } from './keys';

export const missingPhotosQuery = () =>
  queryOptions({
    queryKey: staffKeys.missing,
    queryFn: ({ signal }) => apiRequest<MissingPhotosReport>('/api/photos/missing', { auth: 'staff', signal }),
  });

export const useMissingPhotos = (enabled: boolean) => useQuery({ ...missingPhotosQuery(), enabled });

export function useCleanupMissing() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<{ deletedCount: number }>('/api/photos/cleanup-missing', { method: 'DELETE', body: { deleteFromDatabase: true }, auth: 'staff' }),
    onSuccess: () => client.invalidateQueries({ queryKey: staffKeys.all }),
  });
}

export function useRestorePhotos() {
  const client = useQueryClient();
  return useMutation({
    /** The files of one class: each is matched to a missing photo of that class only (docs/images.md). */
    mutationFn: ({ albumId, files }: { albumId: number; files: readonly File[] }) => {
      const form = new FormData();
      form.append('albumId', String(albumId));
      for (const file of files) form.append('photos', file, file.name);
      return apiRequest<RestoreResponse>('/api/photos/restore', { method: 'POST', body: form, auth: 'staff' });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: staffKeys.missing }),
  });
}
