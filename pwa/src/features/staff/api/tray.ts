/** The unmatched tray of a class: photos no card or file name placed, with the card photos around them. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TrayResponse } from '@contract/photos';
import { apiRequest } from '../../../lib/api-client';
import { staffKeys } from './keys';

export const albumTrayQuery = (albumId: number) =>
  queryOptions({
    queryKey: staffKeys.albumTray(albumId),
    queryFn: ({ signal }) => apiRequest<TrayResponse>(`/api/albums/${albumId}/tray`, { auth: 'staff', signal }),
  });

export const useAlbumTray = (albumId: number) => useQuery(albumTrayQuery(albumId));

/** One tap: a photo to a child, or (null) to the class's group photos; the tray, photos and roster counts refresh. */
export function useAssignFromTray(albumId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ photoId, studentId }: { photoId: number; studentId: number | null }) =>
      apiRequest<{ updated: number }>('/api/photos/student', { method: 'PUT', body: { photoIds: [photoId], studentId }, auth: 'staff' }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: staffKeys.albumTray(albumId) }),
        client.invalidateQueries({ queryKey: staffKeys.albumPhotos(albumId) }),
        client.invalidateQueries({ queryKey: staffKeys.albumStudents(albumId) }),
      ]),
  });
}
