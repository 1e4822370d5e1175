/** Class rosters: students with their private codes, imports, edits, flyers, photo assignment, erasure. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ErasureResponse, RosterPreview, Student } from '@contract/students';
import { apiRequest, ApiError, NetworkError } from '../../../lib/api-client';
import { getStaffToken } from '../../../lib/storage';
import { staffKeys } from './keys';

export const albumStudentsQuery = (albumId: number) =>
  queryOptions({
    queryKey: staffKeys.albumStudents(albumId),
    queryFn: ({ signal }) => apiRequest<Student[]>(`/api/albums/${albumId}/students`, { auth: 'staff', signal }),
  });

export const useAlbumStudents = (albumId: number) => useQuery(albumStudentsQuery(albumId));

/** A pasted or chosen CSV goes to the server as it is: one parser decides what a row means. */
const csvBody = (csv: string) => new Blob([csv], { type: 'text/csv;charset=utf-8' });

export const previewRoster = (albumId: number, csv: string) =>
  apiRequest<RosterPreview>(`/api/albums/${albumId}/students?dryRun=true`, { method: 'POST', body: csvBody(csv), auth: 'staff' });

function useRosterRefresh(albumId: number) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: staffKeys.albumStudents(albumId) }),
      client.invalidateQueries({ queryKey: staffKeys.albumPhotos(albumId) }),
      client.invalidateQueries({ queryKey: staffKeys.schools }),
    ]);
}

export function useImportRoster(albumId: number) {
  const refresh = useRosterRefresh(albumId);
  return useMutation({
    mutationFn: (csv: string) => apiRequest<{ students: Student[] }>(`/api/albums/${albumId}/students`, { method: 'POST', body: csvBody(csv), auth: 'staff' }),
    onSuccess: refresh,
  });
}

export function useAddStudent(albumId: number) {
  const refresh = useRosterRefresh(albumId);
  return useMutation({
    mutationFn: (student: { name: string; number: string; guardianEmail: string; guardianPhone: string }) =>
      apiRequest<{ students: Student[] }>(`/api/albums/${albumId}/students`, { method: 'POST', body: { students: [student] }, auth: 'staff' }),
    onSuccess: refresh,
  });
}

export function useUpdateStudent(albumId: number) {
  const refresh = useRosterRefresh(albumId);
  return useMutation({
    /** `confirm`: staff read the PHOTO_SOLD warning before marking a child do not publish (docs/access.md, "Moving a sold photo"). */
    mutationFn: ({ id, ...changes }: { id: number; name?: string; number?: string; guardianEmail?: string; guardianPhone?: string; doNotPublish?: boolean; newCode?: true; confirm?: true }) =>
      apiRequest<Student>(`/api/students/${id}`, { method: 'PATCH', body: changes, auth: 'staff' }),
    onSuccess: refresh,
  });
}

export function useRemoveStudent(albumId: number) {
  const refresh = useRosterRefresh(albumId);
  return useMutation({
    mutationFn: (id: number) => apiRequest<{ message: string }>(`/api/students/${id}`, { method: 'DELETE', auth: 'staff' }),
    onSuccess: refresh,
  });
}

export function useEraseStudent(albumId: number) {
  const refresh = useRosterRefresh(albumId);
  return useMutation({
    mutationFn: (id: number) => apiRequest<ErasureResponse>(`/api/students/${id}/erase`, { method: 'POST', auth: 'staff' }),
    onSuccess: refresh,
  });
}

export function useAssignPhotos(albumId: number) {
  const refresh = useRosterRefresh(albumId);
  return useMutation({
    mutationFn: ({ photoIds, studentId, confirm }: { photoIds: number[]; studentId: number | null; confirm?: boolean }) =>
      apiRequest<{ updated: number }>('/api/photos/student', { method: 'PUT', body: { photoIds, studentId, ...(confirm ? { confirm: true } : {}) }, auth: 'staff' }),
    onSuccess: refresh,
  });
}

/**
 * The flyers PDF needs the staff token, which a plain link cannot send: it is fetched, then saved
 * through a temporary object URL.
 */
export async function downloadFlyers(albumId: number, fileName: string, studentId?: number): Promise<void> {
  const query = studentId === undefined ? '' : `?student=${studentId}`;
  let response: Response;
  try {
    response = await fetch(`/api/albums/${albumId}/flyers.pdf${query}`, { headers: { Authorization: `Bearer ${getStaffToken() ?? ''}` }, credentials: 'include' });
  } catch (err) {
    throw new NetworkError(err);
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new ApiError(response.status, `${response.status}: ${body?.message ?? response.statusText}`, body?.message ?? null, null, null);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
