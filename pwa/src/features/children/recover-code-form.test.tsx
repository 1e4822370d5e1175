import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CODE_RECOVERY_MSG } from '@contract/code-recovery';
import { PHONE_MSG } from '@contract/phone';
import { StudentCodeForm } from './code-form';

const json = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));

afterEach(() => vi.unstubAllGlobals());

function renderForm() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <StudentCodeForm onUnlocked={() => undefined} />
    </QueryClientProvider>,
  );
}

describe('"Lost your code? Get it by SMS" (docs/sms.md, "Codes recovered by phone")', () => {
  it('opens a small phone form under the code form, posts the number as typed and says the neutral answer in words', async () => {
    const fetch = vi.fn(() => json(202, { message: CODE_RECOVERY_MSG.answer }));
    vi.stubGlobal('fetch', fetch);
    renderForm();
    await userEvent.click(screen.getByRole('button', { name: CODE_RECOVERY_MSG.lost }));
    const phone = await screen.findByLabelText(CODE_RECOVERY_MSG.phoneLabel);
    expect(phone.getAttribute('inputmode')).toBe('tel');
    expect(phone.getAttribute('autocomplete')).toBe('tel');
    expect(phone.getAttribute('type')).toBe('tel');
    await userEvent.type(phone, '71 234 567');
    await userEvent.click(screen.getByRole('button', { name: CODE_RECOVERY_MSG.submit }));
    expect((await screen.findByRole('status')).textContent).toBe(CODE_RECOVERY_MSG.answer);
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/students/recover');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ phone: '71 234 567' });
    await userEvent.click(screen.getByRole('button', { name: CODE_RECOVERY_MSG.close }));
    expect(screen.getByRole('button', { name: CODE_RECOVERY_MSG.lost })).toBeTruthy();
  });

  it("shows the server's words for a number it cannot reach, on the field; an empty one is not sent", async () => {
    const fetch = vi.fn(() => json(400, { message: PHONE_MSG.notMobile, errors: { phone: PHONE_MSG.notMobile } }));
    vi.stubGlobal('fetch', fetch);
    renderForm();
    await userEvent.click(screen.getByRole('button', { name: CODE_RECOVERY_MSG.lost }));
    await userEvent.click(await screen.findByRole('button', { name: CODE_RECOVERY_MSG.submit }));
    expect((await screen.findByRole('alert')).textContent).toBe(CODE_RECOVERY_MSG.phoneRequired);
    expect(fetch).not.toHaveBeenCalled();
    await userEvent.type(screen.getByLabelText(CODE_RECOVERY_MSG.phoneLabel), '391 2345');
    await userEvent.click(screen.getByRole('button', { name: CODE_RECOVERY_MSG.submit }));
    expect((await screen.findByText(PHONE_MSG.notMobile)).getAttribute('role')).toBe('alert');
    expect(screen.getByLabelText(CODE_RECOVERY_MSG.phoneLabel).getAttribute('aria-invalid')).toBe('true');
  });
});
