/**
 * A school's Messages screen (docs/outreach.md, "The season timeline"): its schedule, the preview of
 * who gets what and when, a test to oneself, the statistics, and the guardians with their erasure.
 * Answers are parsed with the contract's schemas, so a drift between API and screen fails loudly.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  messageScheduleSchema,
  messagesPreviewSchema,
  messageStatsSchema,
  messageTestResponseSchema,
  staffGuardiansResponseSchema,
  DEFAULT_REMINDER_DAYS,
  DEFAULT_SEND_FROM,
  DEFAULT_SEND_UNTIL,
  type MessageSchedule,
  type MessageScheduleUpdate,
  type TestableKind,
} from '@contract/outreach';
import { apiRequest } from '../../../lib/api-client';
import { staffKeys } from './keys';

/** The schedule every school starts with: "photos are online", reminders 7, 3 and 1 days before closing, 08:00-19:00. */
export const DEFAULT_SCHEDULE: MessageScheduleUpdate = {
  photosOnline: true,
  reminderDays: [...DEFAULT_REMINDER_DAYS],
  sendFrom: DEFAULT_SEND_FROM,
  sendUntil: DEFAULT_SEND_UNTIL,
};

const base = (schoolId: number) => `/api/schools/${schoolId}/messages`;

export const messageScheduleQuery = (schoolId: number) =>
  queryOptions({
    queryKey: staffKeys.messageSchedule(schoolId),
    queryFn: async ({ signal }) => messageScheduleSchema.parse(await apiRequest<unknown>(`${base(schoolId)}/schedule`, { auth: 'staff', signal })),
  });

export const messagePreviewQuery = (schoolId: number) =>
  queryOptions({
    queryKey: staffKeys.messagePreview(schoolId),
    queryFn: async ({ signal }) => messagesPreviewSchema.parse(await apiRequest<unknown>(`${base(schoolId)}/preview`, { auth: 'staff', signal })),
  });

export const messageStatsQuery = (schoolId: number) =>
  queryOptions({
    queryKey: staffKeys.messageStats(schoolId),
    queryFn: async ({ signal }) => messageStatsSchema.parse(await apiRequest<unknown>(`${base(schoolId)}/stats`, { auth: 'staff', signal })),
  });

export const schoolGuardiansQuery = (schoolId: number) =>
  queryOptions({
    queryKey: staffKeys.guardians(schoolId),
    queryFn: async ({ signal }) => staffGuardiansResponseSchema.parse(await apiRequest<unknown>(`/api/schools/${schoolId}/guardians`, { auth: 'staff', signal })).guardians,
  });

export const useMessageSchedule = (schoolId: number) => useQuery(messageScheduleQuery(schoolId));
export const useMessagePreview = (schoolId: number) => useQuery(messagePreviewQuery(schoolId));
export const useMessageStats = (schoolId: number) => useQuery(messageStatsQuery(schoolId));
export const useSchoolGuardians = (schoolId: number) => useQuery(schoolGuardiansQuery(schoolId));

/** Saves the schedule (the parsed form, or the default); the preview is asked again, since it follows the schedule. */
export function useSaveSchedule(schoolId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (schedule: MessageScheduleUpdate): Promise<MessageSchedule> =>
      messageScheduleSchema.parse(await apiRequest<unknown>(`${base(schoolId)}/schedule`, { method: 'PUT', body: schedule, auth: 'staff' })),
    onSuccess: (saved) => {
      client.setQueryData(staffKeys.messageSchedule(schoolId), saved);
      return client.invalidateQueries({ queryKey: staffKeys.messagePreview(schoolId) });
    },
  });
}

/** Sends one message, as a family would get it, to the signed-in staff member. */
export function useSendTest(schoolId: number) {
  return useMutation({
    mutationFn: async (kind: TestableKind) => messageTestResponseSchema.parse(await apiRequest<unknown>(`${base(schoolId)}/test`, { method: 'POST', body: { kind }, auth: 'staff' })),
  });
}

/** Erases a guardian; the guardians, the preview (its recipients) and the statistics of the school are asked again. */
export function useEraseGuardian(schoolId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (guardianId: number) => apiRequest<unknown>(`/api/guardians/${guardianId}`, { method: 'DELETE', auth: 'staff' }),
    onSuccess: () => client.invalidateQueries({ queryKey: staffKeys.messages(schoolId) }),
  });
}
