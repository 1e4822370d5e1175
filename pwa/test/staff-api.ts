import { act } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { resetToasts } from '../src/components/ui/toast';

/** A request a staff screen sent, with its JSON body. */
export interface SentCall {
  method: string;
  url: string;
  body: unknown;
}

/**
 * A staff session against a fake API, for component tests: every test starts signed in with no
 * calls recorded; `answers` maps "METHOD /url" to the JSON the server gives (anything else is a
 * 404), images answer a few bytes, and the toasts are cleared after each test.
 */
export function fakeStaffApi(): { calls: SentCall[]; answers: Map<string, unknown> } {
  const state = { calls: [] as SentCall[], answers: new Map<string, unknown>() };
  beforeEach(() => {
    state.calls.length = 0;
    state.answers.clear();
    window.localStorage.setItem('token', 'staff-token');
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = String(input);
        const method = init?.method ?? 'GET';
        state.calls.push({ method, url, body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : null });
        if (url.startsWith('/api/images/')) return new Response(new Blob(['jpeg']), { status: 200 });
        const answer = state.answers.get(`${method} ${url}`);
        if (answer === undefined) return new Response(JSON.stringify({ message: 'not here' }), { status: 404, headers: { 'Content-Type': 'application/json' } });
        return new Response(JSON.stringify(answer), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
  });
  afterEach(() => {
    act(() => resetToasts());
    vi.unstubAllGlobals();
  });
  return state;
}
