/** Customer accounts (docs/accounts.md): sign in, register, forgot and reset password. */
import type { CustomerAuthResponse } from '@contract/auth';
import { apiRequest } from '../../lib/api-client';

export const loginCustomer = (body: { email: string; password: string }) =>
  apiRequest<CustomerAuthResponse>('/api/auth/customer/login', { method: 'POST', body, auth: 'none' });

export const registerCustomer = (body: { firstName: string; lastName: string; email: string; password: string; confirmPassword: string }) =>
  apiRequest<CustomerAuthResponse>('/api/auth/customer/register', { method: 'POST', body, auth: 'none' });

export const requestPasswordReset = (body: { email: string }) =>
  apiRequest<{ message: string }>('/api/auth/customer/forgot-password', { method: 'POST', body, auth: 'none' });

export const resetPassword = (body: { token: string; newPassword: string }) =>
  apiRequest<CustomerAuthResponse>('/api/auth/customer/reset-password', { method: 'POST', body, auth: 'none' });
