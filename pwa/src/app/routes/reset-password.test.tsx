import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HARDENING_MSG, MSG } from '@contract/messages';
import { createQueryClient } from '../../lib/query-client';
import ResetPassword from './reset-password';

function renderAt(url: string) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/reset-password" element={<ResetPassword />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('reset password', () => {
  it('without a token offers a new link', () => {
    renderAt('/reset-password');
    expect(screen.getByRole('heading', { name: 'Invalid Reset Link' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Request New Reset Link' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('validates length and match with the spec messages, and toggles visibility', async () => {
    renderAt('/reset-password?token=abc');
    expect(screen.getByRole('heading', { name: 'Set New Password' })).toBeTruthy();
    const password = screen.getByLabelText('New password', { selector: 'input' });
    await userEvent.type(password, '123');
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(screen.getByText('Password must be at least 6 characters')).toBeTruthy();
    expect(screen.getByText('Please confirm your password')).toBeTruthy();

    await userEvent.type(password, '456');
    await userEvent.type(screen.getByLabelText('Confirm password', { selector: 'input' }), '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(screen.getByText("Passwords don't match")).toBeTruthy();

    expect(password.getAttribute('type')).toBe('password');
    await userEvent.click(screen.getByRole('button', { name: 'Show new password' }));
    expect(password.getAttribute('type')).toBe('text');
  });

  describe('a failed reset', () => {
    afterEach(() => vi.unstubAllGlobals());

    async function submitWith(answer: () => Promise<Response>) {
      vi.stubGlobal('fetch', vi.fn(answer));
      renderAt('/reset-password?token=abc');
      await userEvent.type(screen.getByLabelText('New password', { selector: 'input' }), 'secret12');
      await userEvent.type(screen.getByLabelText('Confirm password', { selector: 'input' }), 'secret12');
      await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
      return screen.findByRole('alert');
    }
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } }));

    it('says "invalid or expired" for a link the server refused as such', async () => {
      const alert = await submitWith(() => json(400, { message: MSG.resetLinkInvalid, code: 'RESET_LINK_INVALID' }));
      expect(alert.textContent).toContain(MSG.resetLinkInvalid);
    });

    it('says "too many attempts" when rate-limited, not that the link is bad', async () => {
      const alert = await submitWith(() => json(429, { message: MSG.tooManyAttempts, code: 'RATE_LIMITED' }, { 'Retry-After': '60' }));
      expect(alert.textContent).toBe(HARDENING_MSG.resetRateLimited);
      expect(alert.textContent).not.toContain('invalid');
    });

    it('says the server could not be reached when offline', async () => {
      const alert = await submitWith(() => Promise.reject(new TypeError('Failed to fetch')));
      expect(alert.textContent).toBe(HARDENING_MSG.resetNetwork);
    });
  });
});
