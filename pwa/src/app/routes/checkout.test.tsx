/**
 * The checkout's payment method choice (docs/payments.md, "Choosing a method"): shown only when
 * the server offers more than one method, the chosen one sent with the payment, and a method the
 * server no longer offers (400 PAYMENT_METHOD_NOT_ENABLED) said so, the choice fetched again.
 */
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAYMENT_METHOD_MSG } from '@contract/messages';
import { describePaymentMethod, type PaymentMethodId } from '@contract/payment-methods';
import { createQueryClient } from '../../lib/query-client';
import { LOCAL_KEYS, type CartLine } from '../../lib/storage';
import { cartSignature, rememberUnpaidOrder } from '../../lib/unpaid-order';
import { Toaster } from '../../components/ui/toast';
import { fakeFetch, fullOrder, type Route as FakeRoute } from '../../../test/order-fixture';
import Checkout from './checkout';

const line: CartLine = {
  id: 'line-1',
  photoId: 11,
  albumId: 3,
  photoName: 'IMG_0423.JPG',
  photoPreview: '/api/photos/11/thumbnail',
  productType: 'print_10x15',
  productName: '10x15 Print',
  productDescription: '',
  unitPrice: 25,
  quantity: 1,
  totalPrice: 25,
  schoolId: 1,
  schoolName: 'Acacia Primary',
};

const methods = (...ids: PaymentMethodId[]) => ({ status: 200, body: { methods: ids.map(describePaymentMethod) } });

function start(route: FakeRoute) {
  const fake = fakeFetch((request) => {
    if (request.method === 'GET' && request.path === '/api/schools/1/price-lists') return { status: 200, body: [] };
    if (request.method === 'POST' && request.path === '/api/orders') return { status: 201, body: { order: fullOrder(), customerCreated: false } };
    return route(request);
  });
  vi.stubGlobal('fetch', vi.fn(fake.fetch));
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={['/checkout']}>
        <Routes>
          <Route path="/checkout" element={<Checkout />} />
          <Route path="/order-confirmation/:orderId" element={<h1>Confirmation page</h1>} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return fake.calls;
}

async function fillAndPlace() {
  await userEvent.type(screen.getByLabelText('Your name'), 'Mpho Dube');
  await userEvent.type(screen.getByLabelText('Email'), 'mpho@example.com');
  await userEvent.clear(screen.getByLabelText('Student name'));
  await userEvent.type(screen.getByLabelText('Student name'), 'Neo Dube');
  await userEvent.click(screen.getByRole('button', { name: 'Place Order and Pay' }));
}

const initiations = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter((call) => call.path === '/api/payment/initiate').map((call) => call.body as { orderId: string; method?: string });
/** The requests that write: the cart's quote (POST /api/orders/quote) only reads prices. */
const writes = (calls: { method: string; path: string }[]) => calls.filter((call) => call.method === 'POST' && call.path !== '/api/orders/quote').map((call) => call.path);
const methodFetches = (calls: { path: string }[]) => calls.filter((call) => call.path === '/api/payment/methods').length;

describe('choosing how to pay at checkout', () => {
  beforeEach(() => window.localStorage.setItem(LOCAL_KEYS.cart, JSON.stringify([line])));
  afterEach(() => vi.unstubAllGlobals());

  it('offers the enabled methods as radio cards and sends the chosen one with the payment', async () => {
    const calls = start((request) => {
      if (request.path === '/api/payment/methods') return methods('card', 'ewallet', 'bank_transfer');
      if (request.path === '/api/payment/initiate') return { status: 200, body: { success: false, error: 'The gateway is resting' } };
      return undefined;
    });
    const group = await screen.findByRole('group', { name: PAYMENT_METHOD_MSG.chooseTitle });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((radio) => radio.getAttribute('value'))).toEqual(['card', 'ewallet', 'bank_transfer']);
    expect((within(group).getByRole('radio', { name: 'Card' }) as HTMLInputElement).checked).toBe(true);
    const wallet = within(group).getByRole('radio', { name: 'Mobile money (e-wallet)' });
    expect(wallet.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(wallet.getAttribute('aria-describedby') ?? '')?.textContent).toBe(PAYMENT_METHOD_MSG.methods.ewallet.description);
    expect(screen.getByText(PAYMENT_METHOD_MSG.checkoutNote('by card (Visa, Mastercard and American Express)'))).toBeTruthy();

    await userEvent.click(wallet);
    expect(screen.getByText(PAYMENT_METHOD_MSG.checkoutNote('by mobile money (e-wallet)'))).toBeTruthy();
    await fillAndPlace();
    await screen.findByRole('button', { name: 'Try Payment Again' });
    expect(initiations(calls)).toEqual([expect.objectContaining({ orderId: 'K7Q2M9XD3P', method: 'ewallet' })]);

    // After a failed start the parent may pick another method before trying again.
    const again = screen.getByRole('group', { name: PAYMENT_METHOD_MSG.chooseTitle });
    await userEvent.click(within(again).getByRole('radio', { name: 'Bank transfer' }));
    await userEvent.click(screen.getByRole('button', { name: 'Try Payment Again' }));
    await waitFor(() => expect(initiations(calls)).toHaveLength(2));
    expect(initiations(calls)[1]?.method).toBe('bank_transfer');
  });

  it('shows no choice when only card is enabled, and pays by card', async () => {
    const calls = start((request) => {
      if (request.path === '/api/payment/methods') return methods('card');
      if (request.path === '/api/payment/initiate') return { status: 200, body: { success: false, error: 'The gateway is resting' } };
      return undefined;
    });
    await screen.findByText(PAYMENT_METHOD_MSG.checkoutNote('by card (Visa, Mastercard and American Express)'));
    expect(screen.queryByRole('group', { name: PAYMENT_METHOD_MSG.chooseTitle })).toBeNull();
    expect(screen.queryByRole('radio')).toBeNull();
    await fillAndPlace();
    await screen.findByRole('button', { name: 'Try Payment Again' });
    expect(initiations(calls)).toEqual([expect.objectContaining({ method: 'card' })]);
  });

  it('says so when the chosen method is no longer offered and shows the choice again, fetched anew', async () => {
    let offered: PaymentMethodId[] = ['card', 'ewallet', 'bank_transfer'];
    const calls = start((request) => {
      if (request.path === '/api/payment/methods') return methods(...offered);
      if (request.path === '/api/payment/initiate') {
        const { method } = request.body as { method?: PaymentMethodId };
        if (method && !offered.includes(method)) return { status: 400, body: { error: 'Bad Request', code: 'PAYMENT_METHOD_NOT_ENABLED', message: 'Bank transfer is not enabled' } };
        return { status: 200, body: { success: false, error: 'The gateway is resting' } };
      }
      return undefined;
    });
    const group = await screen.findByRole('group', { name: PAYMENT_METHOD_MSG.chooseTitle });
    await userEvent.click(within(group).getByRole('radio', { name: 'Bank transfer' }));
    // The server was reconfigured meanwhile.
    offered = ['card', 'ewallet'];
    await fillAndPlace();

    await screen.findByText(PAYMENT_METHOD_MSG.methodNotEnabled);
    await waitFor(() => expect(methodFetches(calls)).toBe(2));
    // Past the browser's HTTP cache: the server lets it keep the list a few minutes.
    expect(calls.filter((call) => call.path === '/api/payment/methods').map((call) => call.cache)).toEqual([undefined, 'no-cache']);
    const again = await screen.findByRole('group', { name: PAYMENT_METHOD_MSG.chooseTitle });
    await waitFor(() => expect(within(again).getAllByRole('radio').map((radio) => radio.getAttribute('value'))).toEqual(['card', 'ewallet']));
    expect((within(again).getByRole('radio', { name: 'Card' }) as HTMLInputElement).checked).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Try Payment Again' }));
    await waitFor(() => expect(initiations(calls)).toHaveLength(2));
    expect(initiations(calls).map((body) => body.method)).toEqual(['bank_transfer', 'card']);
  });

  it("'Pay Order' on an order whose payment awaits confirmation opens its page instead of starting a second payment, and sends the choice otherwise", async () => {
    const details = { customerName: 'Mpho Dube', customerEmail: 'mpho@example.com', customerPhone: null, studentName: 'Neo Dube', notes: null };
    rememberUnpaidOrder({ orderId: 'K7Q2M9XD3P', schoolId: 1, lineIds: [line.id], signature: cartSignature([line]), key: 'key-1', details });
    let awaiting = false;
    const calls = start((request) => {
      if (request.path === '/api/payment/methods') return methods('card', 'ewallet');
      if (request.path === '/api/orders/K7Q2M9XD3P')
        return { status: 200, body: fullOrder(awaiting ? { paymentMethod: 'ewallet', awaitingPayment: { method: 'ewallet', reference: 'K7Q2M9XD3P', deadline: null } } : {}) };
      if (request.path === '/api/payment/initiate') return { status: 200, body: { success: false, error: 'The gateway is resting' } };
      return undefined;
    });
    const group = await screen.findByRole('group', { name: PAYMENT_METHOD_MSG.chooseTitle });
    await userEvent.click(within(group).getByRole('radio', { name: 'Mobile money (e-wallet)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Pay Order #K7Q2M9XD3P' }));
    await screen.findByRole('button', { name: 'Try Payment Again' });
    expect(initiations(calls)).toEqual([expect.objectContaining({ orderId: 'K7Q2M9XD3P', method: 'ewallet' })]);

    // Later the wallet payment is on its way: paying again is not offered, its page is shown.
    awaiting = true;
    cleanup();
    const again = start((request) => {
      if (request.path === '/api/payment/methods') return methods('card', 'ewallet');
      if (request.path === '/api/orders/K7Q2M9XD3P')
        return { status: 200, body: fullOrder({ paymentMethod: 'ewallet', awaitingPayment: { method: 'ewallet', reference: 'K7Q2M9XD3P', deadline: null } }) };
      return undefined;
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Pay Order #K7Q2M9XD3P' }));
    await screen.findByRole('heading', { name: 'Confirmation page' });
    expect(initiations(again)).toEqual([]);
  });

  it('never cancels an order whose payment awaits confirmation: the same cart opens its page, a changed one becomes a new order beside it', async () => {
    const details = { customerName: 'Mpho Dube', customerEmail: 'mpho@example.com', customerPhone: null, studentName: 'Neo Dube', notes: null };
    rememberUnpaidOrder({ orderId: 'WAITING001', schoolId: 1, lineIds: [line.id], signature: cartSignature([line]), key: 'key-1', details });
    const route: FakeRoute = (request) => {
      if (request.path === '/api/payment/methods') return methods('card', 'bank_transfer');
      if (request.path === '/api/orders/WAITING001')
        return { status: 200, body: fullOrder({ id: 'WAITING001', paymentMethod: 'bank_transfer', awaitingPayment: { method: 'bank_transfer', reference: 'WAITING001', deadline: '2026-12-04T09:30:00.000Z' } }) };
      if (request.path === '/api/payment/initiate') return { status: 200, body: { success: false, error: 'The gateway is resting' } };
      return undefined;
    };
    // The same cart and details: its page, no new order.
    const same = start(route);
    await screen.findByRole('button', { name: 'Pay Order #WAITING001' });
    await userEvent.click(screen.getByRole('button', { name: 'Place Order and Pay' }));
    await screen.findByRole('heading', { name: 'Confirmation page' });
    expect(writes(same)).toEqual([]);

    // Other details: a new order, and the waiting one is not cancelled.
    cleanup();
    const changed = start(route);
    await screen.findByRole('button', { name: 'Pay Order #WAITING001' });
    await userEvent.clear(screen.getByLabelText('Student name'));
    await userEvent.type(screen.getByLabelText('Student name'), 'Neo and Lesego Dube');
    await userEvent.click(screen.getByRole('button', { name: 'Place Order and Pay' }));
    await screen.findByRole('button', { name: 'Try Payment Again' });
    expect(writes(changed)).toEqual(['/api/orders', '/api/payment/initiate']);
  });
});
