import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MIRROR_DEBOUNCE_MS, mirroredItems, scheduleCartMirror } from './cart-mirror';
import { dispatchCart, lineTotal } from './cart';
import { LOCAL_KEYS, type CartLine } from './storage';

const line = (id: string, photoId: number, productType: string, quantity: number): CartLine => ({
  id,
  photoId,
  albumId: 2,
  photoName: 'IMG_0001.JPG',
  photoPreview: `/api/images/${photoId}/thumbnail`,
  productType,
  productName: productType,
  productDescription: 'A print',
  unitPrice: 25,
  quantity,
  totalPrice: lineTotal(25, quantity),
  schoolId: 1,
  schoolName: 'Demo Primary School',
  studentId: 7,
  studentName: 'Kagiso',
});

const me = (confirmed: boolean) => ({ subscribed: true, confirmed, email: 'm…@example.com', unsubscribed: false });
const json = (body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } }));

/** A fetch that answers /me with `guardian`, and the cart PUT with `put` (default: mirrored). */
function serverWith(guardian: unknown, put: () => Promise<Response> = () => json({ mirrored: true })) {
  const fetch = vi.fn((url: string, init?: RequestInit) => (url === '/api/guardians/me' && (init?.method ?? 'GET') === 'GET' ? json(guardian) : put()));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}
const puts = (fetch: ReturnType<typeof serverWith>) =>
  fetch.mock.calls.filter(([url, init]) => url === '/api/guardians/cart' && init?.method === 'PUT').map(([, init]) => JSON.parse(String(init?.body)) as unknown);

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the cart mirror', () => {
  it('keeps ids and quantities only: photo, product and quantity per line, in order', () => {
    expect(mirroredItems([line('a', 11, 'print_10x15', 2), line('b', 12, 'digital', 1)])).toEqual([
      { photoId: 11, productType: 'print_10x15', quantity: 2 },
      { photoId: 12, productType: 'digital', quantity: 1 },
    ]);
  });

  it('leaves package lines out: a mirrored line is one photo and one product', () => {
    const pack: CartLine = {
      ...line('p', 13, 'package:7', 1),
      package: { packageId: 7, contents: [{ productId: 10, name: '15x20 Print', quantity: 1 }], photos: [{ photoId: 13, albumId: 2, photoName: 'Photo 13' }] },
    };
    expect(mirroredItems([line('a', 11, 'print_10x15', 2), pack])).toEqual([{ photoId: 11, productType: 'print_10x15', quantity: 2 }]);
  });

  it('sends a confirmed guardian\'s cart once the changes settle: one PUT with the newest cart', async () => {
    const fetch = serverWith(me(true));
    scheduleCartMirror([line('a', 11, 'print_10x15', 1)]);
    scheduleCartMirror([line('a', 11, 'print_10x15', 1), line('b', 12, 'digital', 1)]);
    await vi.advanceTimersByTimeAsync(MIRROR_DEBOUNCE_MS - 100);
    expect(fetch).not.toHaveBeenCalled();
    scheduleCartMirror([line('a', 11, 'print_10x15', 3), line('b', 12, 'digital', 1)]);
    await vi.advanceTimersByTimeAsync(MIRROR_DEBOUNCE_MS);
    expect(puts(fetch)).toEqual([
      {
        items: [
          { photoId: 11, productType: 'print_10x15', quantity: 3 },
          { photoId: 12, productType: 'digital', quantity: 1 },
        ],
      },
    ]);
    const put = fetch.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(put[1]?.credentials).toBe('include');
    // The same cart again (a re-price changes no id or quantity) is not sent twice; an emptied one is.
    scheduleCartMirror([line('c', 11, 'print_10x15', 3), line('d', 12, 'digital', 1)]);
    await vi.advanceTimersByTimeAsync(MIRROR_DEBOUNCE_MS);
    scheduleCartMirror([]);
    await vi.advanceTimersByTimeAsync(MIRROR_DEBOUNCE_MS);
    expect(puts(fetch)).toHaveLength(2);
    expect(puts(fetch)[1]).toEqual({ items: [] });
    // /me was asked once for the whole session.
    expect(fetch.mock.calls.filter(([url]) => url === '/api/guardians/me')).toHaveLength(1);
  });

  it('sends nothing for a guardian who has not confirmed, or for a staff session', async () => {
    const fetch = serverWith(me(false));
    scheduleCartMirror([line('a', 11, 'print_10x15', 1)]);
    await vi.advanceTimersByTimeAsync(MIRROR_DEBOUNCE_MS);
    expect(fetch.mock.calls.map(([url]) => url)).toEqual(['/api/guardians/me']);
    expect(puts(fetch)).toEqual([]);

    window.sessionStorage.setItem('guardianMe', JSON.stringify(me(true)));
    window.localStorage.setItem(LOCAL_KEYS.token, 'staff-token');
    window.localStorage.setItem(LOCAL_KEYS.user, JSON.stringify({ id: 1, email: 'p@example.com', role: 'photographer' }));
    scheduleCartMirror([line('a', 11, 'print_10x15', 2)]);
    await vi.advanceTimersByTimeAsync(MIRROR_DEBOUNCE_MS);
    expect(puts(fetch)).toEqual([]);
  });

  it('offline, keeps the cart and sends it when the phone is back online', async () => {
    let online = false;
    const fetch = serverWith(me(true), () => (online ? json({ mirrored: true }) : Promise.reject(new TypeError('Failed to fetch'))));
    scheduleCartMirror([line('a', 11, 'print_10x15', 1)]);
    await vi.advanceTimersByTimeAsync(MIRROR_DEBOUNCE_MS);
    expect(fetch.mock.calls.filter(([, init]) => init?.method === 'PUT')).toHaveLength(1);
    online = true;
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(fetch.mock.calls.filter(([, init]) => init?.method === 'PUT')).toHaveLength(2));
    expect(puts(fetch)[1]).toEqual({ items: [{ photoId: 11, productType: 'print_10x15', quantity: 1 }] });
  });

  it('follows every change of the cart store, without making the cart wait', async () => {
    const fetch = serverWith(me(true));
    const lines = dispatchCart({ type: 'add', lines: [line('a', 11, 'print_10x15', 1), line('b', 12, 'digital', 1)] });
    expect(lines).toHaveLength(2);
    expect(fetch).not.toHaveBeenCalled();
    dispatchCart({ type: 'remove', id: 'a' });
    await vi.waitFor(async () => {
      await vi.advanceTimersByTimeAsync(MIRROR_DEBOUNCE_MS);
      expect(puts(fetch)).toEqual([{ items: [{ photoId: 12, productType: 'digital', quantity: 1 }] }]);
    });
  });
});
