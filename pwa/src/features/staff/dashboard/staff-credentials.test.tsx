import type { ReactNode } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { StaffUser } from '@contract/auth';
import { MSG } from '@contract/messages';
import { STAFF_MSG } from '@contract/staff-screen-messages';
import { Toaster } from '../../../components/ui/toast';
import { fakeStaffApi } from '../../../../test/staff-api';
import { ChangePassword } from './change-password';
import { PhotographersTab } from './photographers-tab';
import { StaffLogin } from './staff-login';
import { StaffForgotPassword, StaffResetPassword } from './staff-password-reset';

const api = fakeStaffApi();

const user = (id: number, firstName: string, role: StaffUser['role'] = 'photographer'): StaffUser => ({
  id,
  email: `${firstName.toLowerCase()}@studio.test`,
  firstName,
  lastName: 'Dube',
  role,
  createdAt: '2026-11-20T08:00:00.000Z',
});

function renderAt(url: string, routes: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>{routes}</Routes>
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
}

describe('staff credentials screens', () => {
  it('My Password: checks the confirmation, sends current and new password, and keeps the fresh token on this device', async () => {
    const me = user(3, 'Ama', 'admin');
    api.answers.set('POST /api/auth/password', { token: 'fresh-token', user: me, message: MSG.passwordChanged });
    renderAt('/', <Route path="/" element={<ChangePassword />} />);

    await userEvent.type(screen.getByLabelText(STAFF_MSG.currentPassword, { selector: 'input' }), 'old-secret');
    await userEvent.type(screen.getByLabelText(STAFF_MSG.newPassword, { selector: 'input' }), 'new-secret');
    await userEvent.type(screen.getByLabelText(STAFF_MSG.confirmNewPassword, { selector: 'input' }), 'other-secret');
    await userEvent.click(screen.getByRole('button', { name: STAFF_MSG.changePassword }));
    expect(screen.getByText(MSG.passwordsDontMatch)).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);

    await userEvent.clear(screen.getByLabelText(STAFF_MSG.confirmNewPassword, { selector: 'input' }));
    await userEvent.type(screen.getByLabelText(STAFF_MSG.confirmNewPassword, { selector: 'input' }), 'new-secret');
    await userEvent.click(screen.getByRole('button', { name: STAFF_MSG.changePassword }));
    expect(await screen.findByText(MSG.passwordChanged)).toBeTruthy();
    expect(api.calls.find((call) => call.method === 'POST')).toEqual({ method: 'POST', url: '/api/auth/password', body: { currentPassword: 'old-secret', newPassword: 'new-secret' } });
    expect(window.localStorage.getItem('token')).toBe('fresh-token');
  });

  it('the staff login offers "Forgot password?", which sends the reset e-mail and answers alike for every address', async () => {
    window.localStorage.removeItem('token');
    api.answers.set('GET /api/auth/register', { open: false });
    api.answers.set('POST /api/auth/forgot-password', { message: MSG.resetLinkSent });
    renderAt(
      '/photographer/dashboard',
      <>
        <Route path="/photographer/dashboard" element={<StaffLogin />} />
        <Route path="/photographer/forgot-password" element={<StaffForgotPassword />} />
      </>,
    );
    await userEvent.click(screen.getByRole('link', { name: STAFF_MSG.forgotPasswordLink }));
    expect(screen.getByRole('heading', { name: STAFF_MSG.staffForgotTitle })).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Email', { selector: 'input' }), 'ama@studio.test');
    await userEvent.click(screen.getByRole('button', { name: STAFF_MSG.sendResetLink }));
    expect((await screen.findByRole('status')).textContent).toBe(MSG.resetLinkSent);
    expect(api.calls.find((call) => call.method === 'POST')).toEqual({ method: 'POST', url: '/api/auth/forgot-password', body: { email: 'ama@studio.test' } });
    expect(screen.getByRole('link', { name: STAFF_MSG.backToStaffLogin }).getAttribute('href')).toBe('/photographer/dashboard');
  });

  it('the reset page sets the new password with the token from the link, signs in and opens the dashboard', async () => {
    window.localStorage.removeItem('token');
    api.answers.set('POST /api/auth/reset-password', { token: 'after-reset', user: user(4, 'Thabo') });
    renderAt(
      '/photographer/reset-password?token=link-token',
      <>
        <Route path="/photographer/reset-password" element={<StaffResetPassword />} />
        <Route path="/photographer/dashboard" element={<p>dashboard here</p>} />
      </>,
    );
    await userEvent.type(screen.getByLabelText(STAFF_MSG.newPassword, { selector: 'input' }), 'brand-new');
    await userEvent.type(screen.getByLabelText(STAFF_MSG.confirmNewPassword, { selector: 'input' }), 'brand-new');
    await userEvent.click(screen.getByRole('button', { name: STAFF_MSG.resetPassword }));
    expect(await screen.findByText('dashboard here')).toBeTruthy();
    expect(api.calls.find((call) => call.method === 'POST')).toEqual({ method: 'POST', url: '/api/auth/reset-password', body: { token: 'link-token', newPassword: 'brand-new' } });
    expect(window.localStorage.getItem('token')).toBe('after-reset');
  });

  it('the reset page without a token sends the photographer to ask for a link', () => {
    renderAt('/photographer/reset-password', <Route path="/photographer/reset-password" element={<StaffResetPassword />} />);
    expect(screen.getByText(STAFF_MSG.staffResetNoToken)).toBeTruthy();
    expect(screen.getByRole('link', { name: STAFF_MSG.forgotPasswordLink }).getAttribute('href')).toBe('/photographer/forgot-password');
  });

  it('an admin signs another staff member out everywhere from the accounts list; not themself', async () => {
    api.answers.set('GET /api/photographers', [user(1, 'Boss', 'admin'), user(7, 'Kagiso')]);
    api.answers.set('POST /api/photographers/7/sign-out', { message: MSG.sessionsRevoked });
    renderAt('/', <Route path="/" element={<PhotographersTab isAdmin currentUserId={1} />} />);

    const button = await screen.findByRole('button', { name: STAFF_MSG.signOutEverywhereLabel('Kagiso Dube') });
    expect(screen.queryByRole('button', { name: STAFF_MSG.signOutEverywhereLabel('Boss Dube') })).toBeNull();
    await userEvent.click(button);
    expect(await screen.findByText(MSG.sessionsRevoked)).toBeTruthy();
    await waitFor(() => expect(api.calls.some((call) => call.method === 'POST' && call.url === '/api/photographers/7/sign-out')).toBe(true));
  });
});
