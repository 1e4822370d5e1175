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

/** Everything of the class (tray, photos, roster counts, review sheet) and the school's counts. */
function useClassLists(albumId: number) {
  const client = useQueryClient();
  return () => Promise.all([client.invalidateQueries({ queryKey: staffKeys.album(albumId) }), client.invalidateQueries({ queryKey: staffKeys.schools })]);
}

/** One tap: a photo to a child, or (null) to the class's group photos; the class's lists and counts refresh. */
export function useAssignFromTray(albumId: number) {
  const refresh = useClassLists(albumId);
  return useMutation({
    mutationFn: ({ photoId, studentId, confirm }: { photoId: number; studentId: number | null; confirm?: boolean }) =>
      apiRequest<{ updated: number }>('/api/photos/student', { method: 'PUT', body: { photoIds: [photoId], studentId, ...(confirm ? { confirm: true } : {}) }, auth: 'staff' }),
    onSuccess: refresh,
  });
}

/**
 * "This is a card photo": a card the scan could not read becomes a card of an unknown code (never
 * shown, sold or placed), its session is matched again and the photos after it wait in the tray.
 * The tray, the class's photos, the review sheet and the school's counts are fetched again.
 */
export function useMarkCards(albumId: number) {
  const refresh = useClassLists(albumId);
  return useMutation({
    mutationFn: (photoIds: number[] | { photoIds: number[]; confirm: boolean }) =>
      apiRequest<{ updated: number }>('/api/photos/card', { method: 'PUT', body: Array.isArray(photoIds) ? { photoIds } : photoIds, auth: 'staff' }),
    onSuccess: refresh,
  });
}
