/** The review sheet of a class: per child, what families will see once it is published; moving a photo with one tap. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReviewSheet } from '@contract/albums';
import { apiRequest } from '../../../lib/api-client';
import { staffKeys } from './keys';

export const albumReviewQuery = (albumId: number) =>
  queryOptions({
    queryKey: staffKeys.albumReview(albumId),
    queryFn: ({ signal }) => apiRequest<ReviewSheet>(`/api/albums/${albumId}/review`, { auth: 'staff', signal }),
  });

export const useAlbumReview = (albumId: number) => useQuery(albumReviewQuery(albumId));

/** Where a photo goes: a child of the class, the class's group photos, or back to the unmatched tray. */
export type MoveTarget = { kind: 'student'; studentId: number } | { kind: 'group' } | { kind: 'tray' };

/** `confirm`: staff read the warning about a photo a family paid for (docs/access.md, "Moving a sold photo"). */
export function moveRequest(photoIds: number[], target: MoveTarget, confirm = false) {
  const confirmed = confirm ? { confirm: true } : {};
  if (target.kind === 'tray') return apiRequest<{ updated: number }>('/api/photos/tray', { method: 'PUT', body: { photoIds, ...confirmed }, auth: 'staff' });
  return apiRequest<{ updated: number }>('/api/photos/student', {
    method: 'PUT',
    body: { photoIds, studentId: target.kind === 'student' ? target.studentId : null, ...confirmed },
    auth: 'staff',
  });
}

/**
 * One tap moves a photo; a staff placement is live at once. The sheet is fetched again, and so are
 * the class's other lists and the school's counts (photos waiting for review).
 */
export function useMovePhoto(albumId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ photoId, target, confirm }: { photoId: number; target: MoveTarget; confirm?: boolean }) => moveRequest([photoId], target, confirm),
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: staffKeys.album(albumId) }), client.invalidateQueries({ queryKey: staffKeys.schools })]),
  });
}
