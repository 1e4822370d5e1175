import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest } from './api-client';
import { STAFF_SESSION_EXPIRED_EVENT, staffSessionExpired } from './staff-expiry';
import { LOCAL_KEYS, getCustomerToken, getStaffToken, getStaffUser, setCustomerSession, setStaffSession } from './storage';

const staffUser = { id: 1, email: 'a@b.test', firstName: 'A', lastName: 'B', role: 'admin' as const, createdAt: '' };
const customerUser = { id: 2, email: 'c@d.test', firstName: 'C', lastName: 'D', phone: null, createdAt: '' };

function answer(status: number, body: unknown) {
  vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(new Response(JSON.stringify(body), { status, statusText: status === 401 ? 'Unauthorized' : 'OK', headers: { 'Content-Type': 'application/json' } }))));
}

describe('an expired staff session', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is cleared wherever its token was refused, and the app is told once', async () => {
    setStaffSession('old-token', staffUser);
    const expired = vi.fn();
    window.addEventListener(STAFF_SESSION_EXPIRED_EVENT, expired);
    answer(401, { message: 'Your session has expired. Please log in again.', code: 'TOKEN_INVALID' });
    await expect(apiRequest('/api/orders', { auth: 'staff' })).rejects.toBeInstanceOf(ApiError);
    await expect(apiRequest('/api/dashboard/stats', { auth: 'staff' })).rejects.toBeInstanceOf(ApiError);
    expect(getStaffToken()).toBeNull();
    expect(getStaffUser()).toBeNull();
    expect(expired).toHaveBeenCalledTimes(1);
    expect(staffSessionExpired()).toBe(true);
    window.removeEventListener(STAFF_SESSION_EXPIRED_EVENT, expired);
  });

  it('is left alone when a customer token or no token was refused', async () => {
    setStaffSession('staff-token', staffUser);
    setCustomerSession('customer-token', customerUser);
    answer(401, { message: 'nope' });
    await expect(apiRequest('/api/customer/orders', { auth: 'customer' })).rejects.toBeInstanceOf(ApiError);
    await expect(apiRequest('/api/auth/login', { method: 'POST', body: {}, auth: 'none' })).rejects.toBeInstanceOf(ApiError);
    expect(getStaffToken()).toBe('staff-token');
    expect(getCustomerToken()).toBe('customer-token');
    expect(window.localStorage.getItem(LOCAL_KEYS.user)).not.toBeNull();
  });

  it('keeps the HTTP reason phrase on errors', async () => {
    answer(401, { message: 'nope' });
    const err = await apiRequest('/api/x', { auth: 'none' }).catch((e: unknown) => e);
    expect((err as ApiError).statusText).toBe('Unauthorized');
  });
});
