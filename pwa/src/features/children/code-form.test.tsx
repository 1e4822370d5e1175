import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CODE_FORMAT_HINT, StudentCodeForm } from './code-form';

const json = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));

afterEach(() => vi.unstubAllGlobals());

function renderForm(onUnlocked = vi.fn()) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <StudentCodeForm onUnlocked={onUnlocked} />
    </QueryClientProvider>,
  );
  return onUnlocked;
}

describe('the student code form (its check loaded when the parent reaches for it)', () => {
  it('says the format of a code that cannot be one, without asking the server', async () => {
    const fetch = vi.fn(() => json(200, {}));
    vi.stubGlobal('fetch', fetch);
    renderForm();
    await userEvent.type(screen.getByLabelText('Student code'), 'K7Q2-M9X');
    await userEvent.click(screen.getByRole('button', { name: "Open My Child's Photos" }));
    expect(await screen.findByText(CODE_FORMAT_HINT)).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends the code as the server reads it (upper case, no dash) and unlocks the child', async () => {
    const unlocked = { student: { id: 7, name: 'Kagiso Dube' }, school: { id: 1, name: 'Demo Primary School', slug: 'demo-primary' }, album: { id: 3, name: 'Class 1A' } };
    const fetch = vi.fn(() => json(200, unlocked));
    vi.stubGlobal('fetch', fetch);
    const onUnlocked = renderForm();
    await userEvent.type(screen.getByLabelText('Student code'), 'k7q2-m9xd');
    await userEvent.click(screen.getByRole('button', { name: "Open My Child's Photos" }));
    await vi.waitFor(() => expect(onUnlocked).toHaveBeenCalled());
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/students/verify');
    expect(JSON.parse(String(init.body))).toEqual({ code: 'K7Q2M9XD' });
  });
});
