/**
 * The cart's quote and coupon (docs/packages-and-coupons.md, "The order of discounts"): the
 * checkout shows the server's subtotal, family discount, coupon and total before paying, a refused
 * coupon's reason at the field, and the order carries the package line, the code and the quote's
 * total.
 */
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CART_MSG, COUPON_MSG, PACKAGE_MSG } from '@contract/messages';
import { PARENT_CHECKOUT_MSG } from '@contract/parent-checkout';
import type { OrderQuote } from '@contract/orders';
import { createQueryClient } from '../../lib/query-client';
import { LOCAL_KEYS, type CartLine } from '../../lib/storage';
import { Toaster } from '../../components/ui/toast';
import { fakeFetch, fullOrder } from '../../../test/order-fixture';
import Checkout from './checkout';

const packageLine: CartLine = {
  id: 'line-pack',
  photoId: 421,
  albumId: 3,
  photoName: 'Photo 421, Photo 422',
  photoPreview: '/api/images/421/thumbnail',
  productType: 'package:7',
  productName: 'Family Pack',
  productDescription: '1 x 15x20 Print, 2 x 10x15 Print',
  unitPrice: 160,
  quantity: 1,
  totalPrice: 160,
  schoolId: 1,
  schoolName: 'Acacia Primary',
  studentId: 5,
  studentName: 'Neo',
  package: {
    packageId: 7,
    contents: [
      { productId: 10, name: '15x20 Print', quantity: 1 },
      { productId: 11, name: '10x15 Print', quantity: 2 },
    ],
    photos: [
      { photoId: 421, albumId: 3, photoName: 'Photo 421' },
      { photoId: 422, albumId: 3, photoName: 'Photo 422' },
    ],
  },
};
const singleLine: CartLine = {
  id: 'line-single',
  photoId: 430,
  albumId: 3,
  photoName: 'Photo 430',
  photoPreview: '/api/images/430/thumbnail',
  productType: '11',
  productName: '10x15 Print',
  productDescription: '',
  unitPrice: 40,
  quantity: 1,
  totalPrice: 40,
  schoolId: 1,
  schoolName: 'Acacia Primary',
  studentId: 6,
  studentName: 'Lesego',
};

const priceLists = [
  {
    id: 1,
    name: 'Season 2026',
    description: '',
    createdAt: '2026-11-01T08:00:00.000Z',
    siblingDiscount: { percent: 20, maxChildren: 3 },
    items: [
      { id: 10, productType: '15x20 Print', description: '', price: '60.00', exampleImage: null, kind: 'print', size: null },
      { id: 11, productType: '10x15 Print', description: '', price: '40.00', exampleImage: null, kind: 'print', size: null },
    ],
    packages: [
      {
        id: 7,
        name: 'Family Pack',
        description: '',
        price: '160.00',
        items: [
          { productId: 10, quantity: 1 },
          { productId: 11, quantity: 2 },
        ],
        maxPoses: 2,
        itemsValue: '140.00',
        savings: '0.00',
      },
    ],
  },
];

/** The server's pricing: Lesego's P40 line is the second child's, 20% off (P8.00); SPRING10 takes 10% of the rest. */
function quoteFor(couponCode: string | null): OrderQuote {
  const lines = [
    { packageId: 7, productType: null, quantity: 1, unitPrice: '160.00', totalPrice: '160.00', itemsValue: '140.00', studentId: 5 },
    { packageId: null, productType: '11', quantity: 1, unitPrice: '40.00', totalPrice: '40.00', itemsValue: null, studentId: 6 },
  ];
  return couponCode
    ? { lines, subtotal: '200.00', siblingDiscount: '8.00', siblingPercent: 20, couponCode, couponDiscount: '19.20', total: '172.80' }
    : { lines, subtotal: '200.00', siblingDiscount: '8.00', siblingPercent: 20, couponCode: null, couponDiscount: '0.00', total: '192.00' };
}

function start() {
  const fake = fakeFetch((request) => {
    if (request.method === 'GET' && request.path === '/api/schools/1/price-lists') return { status: 200, body: priceLists };
    if (request.path === '/api/payment/methods') return { status: 200, body: { methods: [] } };
    if (request.method === 'POST' && request.path === '/api/orders/quote') {
      const code = (request.body as { couponCode?: string }).couponCode ?? null;
      if (code === 'OLD-CODE') return { status: 409, body: { message: COUPON_MSG.expired, code: 'COUPON_EXPIRED' } };
      return { status: 200, body: quoteFor(code) };
    }
    if (request.method === 'POST' && request.path === '/api/orders') return { status: 201, body: { order: fullOrder({ totalAmount: '172.80' }), customerCreated: false } };
    if (request.path === '/api/payment/initiate') return { status: 200, body: { success: false, error: 'The gateway is resting' } };
    return undefined;
  });
  vi.stubGlobal('fetch', vi.fn(fake.fetch));
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={['/checkout']}>
        <Routes>
          <Route path="/checkout" element={<Checkout />} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return fake.calls;
}

const summaryText = () => screen.getByRole('heading', { name: 'Order Summary' }).parentElement?.textContent ?? '';

describe('the cart priced by the server, with a coupon', () => {
  beforeEach(() => window.localStorage.setItem(LOCAL_KEYS.cart, JSON.stringify([packageLine, singleLine])));
  afterEach(() => vi.unstubAllGlobals());

  it('shows the package with its contents, the family discount, a refused coupon\'s reason, then the coupon and the total it sends', async () => {
    const calls = start();
    await screen.findByText(PACKAGE_MSG.siblingLine(20));
    const summary = summaryText();
    expect(summary).toContain('Family Pack');
    expect(summary).toContain(`${PACKAGE_MSG.includes}: 1 x 15x20 Print, 2 x 10x15 Print`);
    expect(summary).toContain(PACKAGE_MSG.packagePhotos('Photo 421, Photo 422'));
    expect(summary).toContain(`${CART_MSG.subtotal}P200.00`);
    expect(summary).toContain('−P8.00');
    expect(summary).toContain(`${CART_MSG.total}P192.00`);
    // The quote carried the package line as the order will.
    const firstQuote = calls.find((call) => call.path === '/api/orders/quote')?.body as { items: unknown[]; couponCode?: string };
    expect(firstQuote.items[0]).toEqual({ packageId: 7, packageName: 'Family Pack', photos: [{ photoId: 421, albumId: 3 }, { photoId: 422, albumId: 3 }], quantity: 1, unitPrice: '160.00', totalPrice: '160.00' });
    expect(firstQuote.couponCode).toBeUndefined();

    // A malformed code is refused at once, an expired one with the server's reason.
    const field = screen.getByLabelText(COUPON_MSG.codeLabel);
    await userEvent.type(field, 'x!');
    await userEvent.click(screen.getByRole('button', { name: COUPON_MSG.apply }));
    expect(screen.getByRole('alert').textContent).toBe(COUPON_MSG.codeFormat);
    await userEvent.clear(field);
    await userEvent.type(field, 'old-code');
    await userEvent.click(screen.getByRole('button', { name: COUPON_MSG.apply }));
    expect((await screen.findByRole('alert')).textContent).toBe(COUPON_MSG.expired);
    expect(summaryText()).toContain(`${CART_MSG.total}P192.00`);

    await userEvent.clear(field);
    await userEvent.type(field, 'spring10');
    await userEvent.click(screen.getByRole('button', { name: COUPON_MSG.apply }));
    await screen.findByText(COUPON_MSG.applied('SPRING10'));
    await waitFor(() => expect(summaryText()).toContain(`${CART_MSG.total}P172.80`));
    expect(summaryText()).toContain(`${COUPON_MSG.discountLine('SPRING10')}−P19.20`);

    await userEvent.type(screen.getByLabelText('Your name'), 'Mpho Dube');
    await userEvent.type(screen.getByLabelText('Email'), 'mpho@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Place Order and Pay' }));
    await screen.findByRole('button', { name: 'Try Payment Again' });
    const order = calls.find((call) => call.method === 'POST' && call.path === '/api/orders')?.body as { totalAmount: string; couponCode: string; items: { packageId?: number; productType?: string }[] };
    expect(order.totalAmount).toBe('172.80');
    expect(order.couponCode).toBe('SPRING10');
    expect(order.items.map((item) => item.packageId ?? item.productType)).toEqual([7, '11']);
  });

  it('keeps the coupon with the cart: opened again (a reload, back from the gallery) it is quoted again and its total shown', async () => {
    const first = start();
    await screen.findByText(PACKAGE_MSG.siblingLine(20));
    await userEvent.type(screen.getByLabelText(COUPON_MSG.codeLabel), 'spring10');
    await userEvent.click(screen.getByRole('button', { name: COUPON_MSG.apply }));
    await waitFor(() => expect(summaryText()).toContain(`${CART_MSG.total}P172.80`));
    expect(JSON.parse(window.localStorage.getItem(LOCAL_KEYS.cartCoupon) ?? 'null')).toEqual({ code: 'SPRING10', schoolId: 1 });
    expect(first.length).toBeGreaterThan(0);
    cleanup();

    const again = start();
    await screen.findByText(COUPON_MSG.applied('SPRING10'));
    await waitFor(() => expect(summaryText()).toContain(`${CART_MSG.total}P172.80`));
    // The server was asked again with the kept code: its total is the one shown (and charged).
    const quoted = again.filter((call) => call.path === '/api/orders/quote').map((call) => (call.body as { couponCode?: string }).couponCode);
    expect(quoted).toContain('SPRING10');
  });

  it('a kept coupon the server no longer takes is removed, saying which and why', async () => {
    window.localStorage.setItem(LOCAL_KEYS.cartCoupon, JSON.stringify({ code: 'OLD-CODE', schoolId: 1 }));
    start();
    expect((await screen.findByRole('alert')).textContent).toBe(PARENT_CHECKOUT_MSG.couponRemoved('OLD-CODE', COUPON_MSG.expired));
    await waitFor(() => expect(summaryText()).toContain(`${CART_MSG.total}P192.00`));
    expect(window.localStorage.getItem(LOCAL_KEYS.cartCoupon)).toBeNull();
    expect(screen.getByLabelText(COUPON_MSG.codeLabel)).toBeTruthy();
  });

  it('takes the coupon off again when asked', async () => {
    start();
    await screen.findByText(PACKAGE_MSG.siblingLine(20));
    await userEvent.type(screen.getByLabelText(COUPON_MSG.codeLabel), 'SPRING10');
    await userEvent.click(screen.getByRole('button', { name: COUPON_MSG.apply }));
    await waitFor(() => expect(summaryText()).toContain(`${CART_MSG.total}P172.80`));
    await userEvent.click(screen.getByRole('button', { name: COUPON_MSG.remove }));
    await waitFor(() => expect(summaryText()).toContain(`${CART_MSG.total}P192.00`));
    expect(within(screen.getByRole('heading', { name: 'Order Summary' }).parentElement as HTMLElement).queryByText(/SPRING10/)).toBeNull();
  });
});
