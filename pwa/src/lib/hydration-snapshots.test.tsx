/**
 * A visitor with nothing stored hydrates the prerendered page in one render: the session and the
 * cart read the same snapshot from an empty storage as the prerender was built with, so React
 * has no reason to render their readers again, synchronously, right after hydration
 * (docs/performance.md, "The first screen"). With something stored, the readers do render again
 * and show it.
 */
import { act } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { cartCount, useCart } from './cart';
import { useSession } from './session';
import { LOCAL_KEYS } from './storage';

let renders = 0;

function Probe() {
  renders += 1;
  const session = useSession();
  const count = cartCount(useCart());
  return (
    <p>
      {session.customerToken ? 'signed in' : 'signed out'}, {count} in the cart
    </p>
  );
}

async function hydrate(): Promise<{ container: HTMLElement; hydrationRenders: number; unmount: () => void }> {
  const html = renderToString(<Probe />);
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.appendChild(container);
  renders = 0;
  const errors: unknown[] = [];
  const root = await act(async () => hydrateRoot(container, <Probe />, { onRecoverableError: (err) => errors.push(err) }));
  expect(errors).toEqual([]);
  return {
    container,
    hydrationRenders: renders,
    unmount: () => {
      act(() => root.unmount());
      container.remove();
    },
  };
}

describe('hydrating with the session and the cart', () => {
  afterEach(() => localStorage.clear());

  it('renders once when nothing is stored', async () => {
    const { container, hydrationRenders, unmount } = await hydrate();
    expect(hydrationRenders).toBe(1);
    expect(container.textContent).toBe('signed out, 0 in the cart');
    unmount();
  });

  it('renders again, and shows what is stored, when there is a session and a cart', async () => {
    localStorage.setItem(LOCAL_KEYS.customerToken, 'token-1');
    localStorage.setItem(
      LOCAL_KEYS.cart,
      JSON.stringify([
        {
          id: 'a',
          photoId: 7,
          albumId: 3,
          photoName: 'Photo 7',
          photoPreview: '/api/images/7/thumbnail',
          productType: '12',
          productName: 'Digital Download',
          productDescription: 'Full-resolution file',
          unitPrice: 15,
          quantity: 2,
          totalPrice: 30,
        },
      ]),
    );
    const { container, hydrationRenders, unmount } = await hydrate();
    expect(hydrationRenders).toBe(2);
    expect(container.textContent).toBe('signed in, 1 in the cart');
    unmount();
  });
});
