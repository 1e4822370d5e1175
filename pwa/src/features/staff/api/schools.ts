/** Schools as staff see them (with classes and price list name), create, edit and delete. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SchoolCreateInput, SchoolUpdateInput, StaffSchool } from '@contract/schools';
import { apiRequest } from '../../../lib/api-client';
import { staffKeys } from './keys';

export const staffSchoolsQuery = () =>
  queryOptions({
    queryKey: staffKeys.schools,
    queryFn: ({ signal }) => apiRequest<StaffSchool[]>('/api/schools', { auth: 'staff', signal }),
  });

export const staffSchoolQuery = (id: number) =>
  queryOptions({
    queryKey: staffKeys.school(id),
    queryFn: ({ signal }) => apiRequest<StaffSchool>(`/api/schools/by-id/${id}`, { auth: 'staff', signal }),
  });

export const useStaffSchools = () => useQuery(staffSchoolsQuery());
export const useStaffSchool = (id: number) => useQuery({ ...staffSchoolQuery(id), enabled: Number.isInteger(id) && id > 0 });

export function useCreateSchool() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SchoolCreateInput) => apiRequest<StaffSchool>('/api/schools', { method: 'POST', body: input, auth: 'staff' }),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: staffKeys.schools }), client.invalidateQueries({ queryKey: staffKeys.stats })]),
  });
}

export function useDeleteSchool() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<{ message: string }>(`/api/schools/${id}`, { method: 'DELETE', auth: 'staff' }),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: staffKeys.schools }), client.invalidateQueries({ queryKey: staffKeys.stats })]),
  });
}

/** Edits a school: the dashboard's edit form, and the class management page's access mode. */
export function useUpdateSchool(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SchoolUpdateInput) => apiRequest<StaffSchool>(`/api/schools/${id}`, { method: 'PATCH', body: input, auth: 'staff' }),
    onSuccess: (school) => {
      client.setQueryData(staffKeys.school(id), school);
      return client.invalidateQueries({ queryKey: staffKeys.schools });
    },
  });
}
