/** Staff sign-in and the first-account registration (open only while no staff exists). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ForgotPasswordInput, ResetPasswordInput, StaffAuthResponse, StaffChangePasswordInput, StaffLoginInput, StaffRegisterInput } from '@contract/auth';
import { apiRequest } from '../../../lib/api-client';
import { clearCartKeys } from '../../../lib/cart';
import { setStaffSession } from '../../../lib/storage';
import { staffKeys } from './keys';

export const registrationQuery = () =>
  queryOptions({
    queryKey: staffKeys.registration,
    queryFn: ({ signal }) => apiRequest<{ open: boolean }>('/api/auth/register', { auth: 'none', signal }),
  });

export const useRegistrationOpen = () => useQuery(registrationQuery());

export const loginStaff = (input: StaffLoginInput) =>
  apiRequest<StaffAuthResponse>('/api/auth/login', { method: 'POST', body: input, auth: 'none' });

export const registerStaff = (input: StaffRegisterInput) =>
  apiRequest<StaffAuthResponse>('/api/auth/register', { method: 'POST', body: input, auth: 'none' });

/** Store token and user, clear the cart keys, reload. */
export function startStaffSession({ token, user }: StaffAuthResponse): void {
  setStaffSession(token, user);
  clearCartKeys();
  window.location.reload();
}

/** Changes the signed-in account's password; the answer's token replaces this device's (every other one is void). */
export const changeStaffPassword = (input: StaffChangePasswordInput) =>
  apiRequest<StaffAuthResponse & { message: string }>('/api/auth/password', { method: 'POST', body: input, auth: 'staff' });

export const requestStaffPasswordReset = (input: ForgotPasswordInput) =>
  apiRequest<{ message: string }>('/api/auth/forgot-password', { method: 'POST', body: input, auth: 'none' });

export const resetStaffPassword = (input: ResetPasswordInput) =>
  apiRequest<StaffAuthResponse>('/api/auth/reset-password', { method: 'POST', body: input, auth: 'none' });
