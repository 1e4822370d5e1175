import { StrictMode } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OUTREACH_SCREEN_MSG } from '@contract/messages';
import { createQueryClient } from '../../lib/query-client';
import { readCart } from '../../lib/cart';
import { Toaster } from '../../components/ui/toast';
import Unsubscribe from './unsubscribe';
import CartRestore from './cart-restore';
import Subscribed from './subscribed';

const json = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));

function renderAt(url: string) {
  return render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/unsubscribe" element={<Unsubscribe />} />
            <Route path="/cart/restore" element={<CartRestore />} />
            <Route path="/subscribed" element={<Subscribed />} />
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

describe('/subscribed', () => {
  it('confirmed: what comes and the one-click unsubscribe', () => {
    vi.stubGlobal('fetch', vi.fn());
    window.sessionStorage.setItem('guardianMe', JSON.stringify({ subscribed: true, confirmed: false, email: 'm…@example.com', unsubscribed: false }));
    renderAt('/subscribed?status=confirmed');
    expect(screen.getByRole('heading', { name: OUTREACH_SCREEN_MSG.confirmedTitle })).toBeTruthy();
    expect(screen.getByText(OUTREACH_SCREEN_MSG.confirmedUnsubscribe)).toBeTruthy();
    // The gallery asks again, so it stops offering.
    expect(window.sessionStorage.getItem('guardianMe')).toBeNull();
  });

  it('invalid: says so and how to get a new link', () => {
    renderAt('/subscribed?status=invalid');
    expect(screen.getByRole('heading', { name: OUTREACH_SCREEN_MSG.invalidTitle })).toBeTruthy();
    expect(screen.getByText(OUTREACH_SCREEN_MSG.invalidWhat)).toBeTruthy();
  });
});
