/**
 * The opt-out of an SMS (docs/sms.md, "Opting out"): what its link names (a GET that changes
 * nothing) and a person's press of the page's button (the POST). The same endpoint as the e-mail's
 * one-click unsubscribe; an SMS's token names the phone, and the answer carries `phone`.
 */
import { guardianUnsubscribeResponseSchema, type GuardianUnsubscribeResponse } from '@contract/outreach';
import { apiRequest } from '../../lib/api-client';

const url = (token: string) => `/api/guardians/unsubscribe?token=${encodeURIComponent(token)}`;

export const smsStopKeys = { info: (token: string) => ['sms-stop', token] as const };

export async function smsStopInfo(token: string): Promise<GuardianUnsubscribeResponse> {
  return guardianUnsubscribeResponseSchema.parse(await apiRequest<unknown>(url(token), { auth: 'none', cache: 'no-store' }));
}

export async function stopSms(token: string): Promise<GuardianUnsubscribeResponse> {
  return guardianUnsubscribeResponseSchema.parse(await apiRequest<unknown>(url(token), { method: 'POST', body: {}, auth: 'none' }));
}
