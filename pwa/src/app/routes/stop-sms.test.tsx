import { StrictMode } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SMS_STOP_MSG as M } from '@contract/season-sms-messages';
import { createQueryClient } from '../../lib/query-client';
import StopSms from './stop-sms';

const json = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
const PHONE = '+26771234567';

function renderAt(url: string) {
  return render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/stop-sms" element={<StopSms />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
}

const calls = (fetch: ReturnType<typeof vi.fn>) => (fetch.mock.calls as unknown as [string, RequestInit | undefined][]).map(([url, init]) => `${init?.method ?? 'GET'} ${url}`);

afterEach(() => vi.unstubAllGlobals());

describe('/stop-sms', () => {
  it('only asks what the link names on opening, and stops the SMS on the button\'s POST', async () => {
    const fetch = vi.fn((_url: string, init?: RequestInit) =>
      init?.method === 'POST' ? json(200, { phone: PHONE, unsubscribed: true, message: 'Stopped' }) : json(200, { phone: PHONE, unsubscribed: false, message: 'Stop?' }),
    );
    vi.stubGlobal('fetch', fetch);
    renderAt('/stop-sms?token=26771234567.abc');
    expect(await screen.findByText(M.prompt(PHONE))).toBeTruthy();
    // Opening the page sent nothing but the GET.
    expect(new Set(calls(fetch))).toEqual(new Set(['GET /api/guardians/unsubscribe?token=26771234567.abc']));
    await userEvent.click(screen.getByRole('button', { name: M.button }));
    expect((await screen.findByText(M.stopped(PHONE))).getAttribute('role')).toBe('status');
    expect(screen.getByText(M.orderSmsStill)).toBeTruthy();
    expect(calls(fetch).filter((call) => call.startsWith('POST'))).toEqual(['POST /api/guardians/unsubscribe?token=26771234567.abc']);
  });

  it('says a number already stopped is stopped, with no button', async () => {
    vi.stubGlobal('fetch', vi.fn(() => json(200, { phone: PHONE, unsubscribed: true, message: 'Stopped' })));
    renderAt('/stop-sms?token=26771234567.abc');
    expect((await screen.findByText(M.alreadyStopped(PHONE))).getAttribute('role')).toBe('status');
    expect(screen.queryByRole('button', { name: M.button })).toBeNull();
  });

  it('says a refused link, or none, is not valid, with a way home', async () => {
    vi.stubGlobal('fetch', vi.fn(() => json(400, { message: 'Invalid link', code: 'UNSUBSCRIBE_LINK_INVALID' })));
    renderAt('/stop-sms?token=forged');
    expect((await screen.findByRole('alert')).textContent).toBe(M.linkInvalid);
    expect(screen.queryByRole('button', { name: M.button })).toBeNull();
    expect(screen.getByRole('link', { name: M.home }).getAttribute('href')).toBe('/');
  });

  it('offers another try when the server cannot answer', async () => {
    const answers = [() => json(500, { message: 'Internal error' }), () => json(200, { phone: PHONE, unsubscribed: false, message: 'Stop?' })];
    vi.stubGlobal('fetch', vi.fn(() => (answers.shift() ?? answers[0]!)()));
    renderAt('/stop-sms?token=26771234567.abc');
    expect((await screen.findByRole('alert')).textContent).toBe(M.failed);
    await userEvent.click(screen.getByRole('button', { name: M.tryAgain }));
    expect(await screen.findByRole('button', { name: M.button })).toBeTruthy();
  });
});
