import { StrictMode } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GUARDIAN_CONSENT_MSG } from '@contract/guardian-consent';
import { OUTREACH_SCREEN_MSG } from '@contract/messages';
import { createQueryClient } from '../../lib/query-client';
import { readCart } from '../../lib/cart';
import { Toaster } from '../../components/ui/toast';
import Unsubscribe from './unsubscribe';
import CartRestore from './cart-restore';
import ConfirmEmail from './confirm-email';

const json = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));

function renderAt(url: string) {
  return render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/unsubscribe" element={<Unsubscribe />} />
            <Route path="/cart/restore" element={<CartRestore />} />
            <Route path="/confirm-email" element={<ConfirmEmail />} />
            <Route path="/checkout" element={<h1>Checkout page</h1>} />
          </Routes>
        </MemoryRouter>
        <Toaster />
      </QueryClientProvider>
    </StrictMode>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('/unsubscribe', () => {
  it('unsubscribes on opening, with one POST of the token, and says what still arrives', async () => {
    const fetch = vi.fn(() => json(200, { email: 'mother@example.com', unsubscribed: true, message: 'Unsubscribed' }));
    vi.stubGlobal('fetch', fetch);
    renderAt('/unsubscribe?token=abc.def');
    expect(await screen.findByText(OUTREACH_SCREEN_MSG.unsubscribedFor('mother@example.com'))).toBeTruthy();
    expect(screen.getByText(OUTREACH_SCREEN_MSG.orderEmailsStill)).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/guardians/unsubscribe?token=abc.def');
    expect(init.method).toBe('POST');
  });

  it('says a refused link is not valid, with no retry but a way home', async () => {
    vi.stubGlobal('fetch', vi.fn(() => json(400, { message: 'Invalid link', code: 'UNSUBSCRIBE_LINK_INVALID' })));
    renderAt('/unsubscribe?token=forged');
    expect((await screen.findByRole('alert')).textContent).toBe(OUTREACH_SCREEN_MSG.linkInvalid);
    expect(screen.queryByRole('button', { name: OUTREACH_SCREEN_MSG.tryAgain })).toBeNull();
    expect(screen.getByRole('link', { name: OUTREACH_SCREEN_MSG.home }).getAttribute('href')).toBe('/');
  });

  it('offers another try after a server failure', async () => {
    const answers = [() => json(500, { message: 'Internal error' }), () => json(200, { email: 'mother@example.com', unsubscribed: true, message: 'Unsubscribed' })];
    vi.stubGlobal('fetch', vi.fn(() => answers.shift()!()));
    renderAt('/unsubscribe?token=abc.def');
    expect((await screen.findByRole('alert')).textContent).toBe(OUTREACH_SCREEN_MSG.failed);
    await userEvent.click(screen.getByRole('button', { name: OUTREACH_SCREEN_MSG.tryAgain }));
    expect(await screen.findByText(OUTREACH_SCREEN_MSG.unsubscribedFor('mother@example.com'))).toBeTruthy();
  });
});

const restoredLine = (photoId: number, productType: string) => ({
  photoId,
  albumId: 3,
  photoName: `Photo ${photoId}`,
  photoPreview: `/api/images/${photoId}/thumbnail`,
  productType,
  productName: productType,
  productDescription: 'A print',
  unitPrice: 25,
  quantity: 2,
  schoolId: 1,
  schoolName: 'Demo Primary School',
  studentId: null,
  studentName: null,
});

describe('/cart/restore', () => {
  it('rebuilds the cart, says how many lines could not come back, and opens the cart', async () => {
    const fetch = vi.fn(() => json(200, { items: [restoredLine(5, 'print_10x15'), restoredLine(6, 'digital')], dropped: 1, schoolSlug: 'demo-primary' }));
    vi.stubGlobal('fetch', fetch);
    renderAt('/cart/restore?token=tok');
    await screen.findByRole('heading', { name: 'Checkout page' });
    expect(readCart().map((line) => [line.photoId, line.productType, line.quantity, line.totalPrice])).toEqual([
      [5, 'print_10x15', 2, 50],
      [6, 'digital', 2, 50],
    ]);
    expect(screen.getAllByText(`${OUTREACH_SCREEN_MSG.restoredLines(2)} ${OUTREACH_SCREEN_MSG.droppedLines(1)}`).length).toBeGreaterThan(0);
    const calls = fetch.mock.calls as unknown as [string, RequestInit][];
    const restoreCalls = calls.filter(([url]) => url === '/api/guardians/cart/restore');
    expect(restoreCalls).toHaveLength(1);
    expect(JSON.parse(String(restoreCalls[0]![1].body))).toEqual({ token: 'tok' });
  });

  it('explains an expired link (410) and leads home', async () => {
    vi.stubGlobal('fetch', vi.fn(() => json(410, { code: 'CART_LINK_EXPIRED' })));
    renderAt('/cart/restore?token=old');
    expect((await screen.findByRole('alert')).textContent).toBe(OUTREACH_SCREEN_MSG.restoreExpired);
    expect(screen.getByRole('link', { name: OUTREACH_SCREEN_MSG.home })).toBeTruthy();
    expect(readCart()).toEqual([]);
  });

  it('explains a link that is not valid (400)', async () => {
    vi.stubGlobal('fetch', vi.fn(() => json(400, { message: 'Invalid', code: 'VALIDATION_ERROR' })));
    renderAt('/cart/restore?token=x');
    expect((await screen.findByRole('alert')).textContent).toBe(OUTREACH_SCREEN_MSG.linkInvalid);
  });
});

describe('/confirm-email', () => {
  it('changes nothing on opening: only a press of the button confirms, then says what comes and the one-click unsubscribe', async () => {
    const fetch = vi.fn(() => json(200, { confirmed: true, email: 'mother@example.com', message: 'Confirmed' }));
    vi.stubGlobal('fetch', fetch);
    window.sessionStorage.setItem('guardianMe', JSON.stringify({ subscribed: false, confirmed: false, email: null, unsubscribed: false }));
    renderAt('/confirm-email?token=tok-123');
    expect(screen.getByRole('heading', { name: GUARDIAN_CONSENT_MSG.pageTitle })).toBeTruthy();
    expect(screen.getByText(GUARDIAN_CONSENT_MSG.pageWhat)).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: GUARDIAN_CONSENT_MSG.confirmButton }));
    expect(await screen.findByRole('heading', { name: OUTREACH_SCREEN_MSG.confirmedTitle })).toBeTruthy();
    expect(screen.getByText(OUTREACH_SCREEN_MSG.confirmedUnsubscribe)).toBeTruthy();
    const calls = (fetch.mock.calls as unknown as [string, RequestInit][]).filter(([url]) => url === '/api/guardians/confirm');
    expect(calls).toHaveLength(1);
    expect(calls[0]![1].method).toBe('POST');
    expect(JSON.parse(String(calls[0]![1].body))).toEqual({ token: 'tok-123' });
    // The gallery asks again, so it stops offering.
    expect(window.sessionStorage.getItem('guardianMe')).toBeNull();
  });

  it('says a used link was used, and an invalid one how to get a new link, with no retry', async () => {
    vi.stubGlobal('fetch', vi.fn(() => json(400, { message: 'used', code: 'CONFIRM_LINK_USED' })));
    renderAt('/confirm-email?token=used');
    await userEvent.click(screen.getByRole('button', { name: GUARDIAN_CONSENT_MSG.confirmButton }));
    expect(await screen.findByRole('heading', { name: GUARDIAN_CONSENT_MSG.usedTitle })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(GUARDIAN_CONSENT_MSG.linkUsed);
    expect(screen.queryByRole('button', { name: GUARDIAN_CONSENT_MSG.confirmButton })).toBeNull();
  });

  it('an expired or unknown link: says so and how to get a new one', async () => {
    vi.stubGlobal('fetch', vi.fn(() => json(400, { message: 'invalid', code: 'CONFIRM_LINK_INVALID' })));
    renderAt('/confirm-email?token=old');
    await userEvent.click(screen.getByRole('button', { name: GUARDIAN_CONSENT_MSG.confirmButton }));
    expect(await screen.findByRole('heading', { name: OUTREACH_SCREEN_MSG.invalidTitle })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(OUTREACH_SCREEN_MSG.invalidWhat);
  });

  it('without a token: says the link is incomplete and offers no button', () => {
    renderAt('/confirm-email');
    expect(screen.getByRole('alert').textContent).toBe(GUARDIAN_CONSENT_MSG.noToken);
    expect(screen.queryByRole('button', { name: GUARDIAN_CONSENT_MSG.confirmButton })).toBeNull();
  });
});
