/**
 * My Orders and payment methods (docs/payments.md, "Choosing a method" and "Payments that settle
 * later"): an unpaid order's Pay Now sends the chosen method; an order whose payment awaits
 * confirmation says what to do, and paying another way is one deliberate step further.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAYMENT_METHOD_MSG } from '@contract/messages';
import { describePaymentMethod, type PaymentMethodId } from '@contract/payment-methods';
import type { Order } from '@contract/orders';
import { createQueryClient } from '../../lib/query-client';
import { setCustomerSession } from '../../lib/storage';
import { Toaster } from '../../components/ui/toast';
import { fakeFetch, fullOrder } from '../../../test/order-fixture';
import CustomerOrders from './customer-orders';

const unpaid = fullOrder({ id: 'UNPAID0001' });
const waiting = fullOrder({
  id: 'BANKXFER01',
  paymentMethod: 'bank_transfer',
  awaitingPayment: { method: 'bank_transfer', reference: 'BANKXFER01', deadline: '2026-12-04T09:30:00.000Z' },
});

function open(orders: Order[], offered: () => PaymentMethodId[], initiate: (method: string | undefined) => { status: number; body: unknown }) {
  const fake = fakeFetch((request) => {
    if (request.path === '/api/customer/orders') return { status: 200, body: orders };
    if (request.path === '/api/payment/methods') return { status: 200, body: { methods: offered().map(describePaymentMethod) } };
    if (request.path === '/api/payment/initiate') return initiate((request.body as { method?: string }).method);
    return undefined;
  });
  vi.stubGlobal('fetch', vi.fn(fake.fetch));
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={['/customer/orders']}>
        <Routes>
          <Route path="/customer/orders" element={<CustomerOrders />} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return fake.calls;
}

const card = (id: string) => screen.getByRole('heading', { name: `Order #${id}` }).closest('.card') as HTMLElement;

describe('paying from My Orders', () => {
  beforeEach(() => setCustomerSession('customer-token', { id: 7, email: 'mpho@example.com', firstName: 'Mpho', lastName: 'Dube', phone: null, createdAt: '2026-11-01T08:00:00.000Z' }));
  afterEach(() => vi.unstubAllGlobals());

  it('sends the method chosen on the unpaid order, and shows the awaiting one with its reference and deadline, paid another way only on request', async () => {
    const calls = open([unpaid, waiting], () => ['card', 'ewallet', 'bank_transfer'], () => ({ status: 200, body: { success: false, error: 'The gateway is resting' } }));
    await screen.findByRole('heading', { name: `Order #${unpaid.id}` });

    const pending = card(unpaid.id);
    const group = await within(pending).findByRole('group', { name: PAYMENT_METHOD_MSG.chooseTitle });
    await userEvent.click(within(group).getByRole('radio', { name: 'Mobile money (e-wallet)' }));
    await userEvent.click(within(pending).getByRole('button', { name: 'Pay Now' }));
    await waitFor(() => expect(calls.some((call) => call.path === '/api/payment/initiate')).toBe(true));
    expect(calls.find((call) => call.path === '/api/payment/initiate')?.body).toMatchObject({ orderId: unpaid.id, method: 'ewallet' });

    const awaiting = card(waiting.id);
    const note = within(awaiting).getByRole('status');
    expect(within(note).getByText(PAYMENT_METHOD_MSG.awaitingTitle)).toBeTruthy();
    expect(within(note).getByText(PAYMENT_METHOD_MSG.awaitingBankTransfer('BANKXFER01', '4 Dec 2026, 11:30'))).toBeTruthy();
    expect(within(note).getByText(PAYMENT_METHOD_MSG.awaitingReference).nextElementSibling?.textContent).toBe('BANKXFER01');
    expect(within(awaiting).queryByRole('button', { name: 'Pay Now' })).toBeNull();
    expect(within(awaiting).queryByRole('group', { name: PAYMENT_METHOD_MSG.chooseTitle })).toBeNull();
    expect(within(awaiting).getByRole('button', { name: 'Cancel Order' })).toBeTruthy();
    expect(within(awaiting).getAllByText(PAYMENT_METHOD_MSG.awaitingTitle).length).toBe(2);

    // Paying another way is one deliberate step further (docs/payments.md, "Switching method").
    expect(within(note).getByText(PAYMENT_METHOD_MSG.payAnotherWayHelp)).toBeTruthy();
    await userEvent.click(within(awaiting).getByRole('button', { name: PAYMENT_METHOD_MSG.payAnotherWay }));
    const other = within(awaiting).getByRole('group', { name: PAYMENT_METHOD_MSG.chooseTitle });
    await userEvent.click(within(other).getByRole('radio', { name: 'Card' }));
    await userEvent.click(within(awaiting).getByRole('button', { name: 'Pay Now' }));
    await waitFor(() => expect(calls.filter((call) => call.path === '/api/payment/initiate')).toHaveLength(2));
    expect(calls.filter((call) => call.path === '/api/payment/initiate')[1]?.body).toMatchObject({ orderId: waiting.id, method: 'card' });
  });

  it('says so when the method is no longer offered, and fetches the choice again', async () => {
    let offered: PaymentMethodId[] = ['card', 'bank_transfer'];
    const calls = open([unpaid], () => offered, (method) =>
      method === 'bank_transfer' && !offered.includes('bank_transfer')
        ? { status: 400, body: { code: 'PAYMENT_METHOD_NOT_ENABLED', message: 'Bank transfer is not enabled' } }
        : { status: 200, body: { success: false, error: 'The gateway is resting' } },
    );
    const group = await screen.findByRole('group', { name: PAYMENT_METHOD_MSG.chooseTitle });
    await userEvent.click(within(group).getByRole('radio', { name: 'Bank transfer' }));
    offered = ['card'];
    await userEvent.click(screen.getByRole('button', { name: 'Pay Now' }));
    await screen.findByText(PAYMENT_METHOD_MSG.methodNotEnabled);
    // One method left: no choice, and Pay Now pays by card.
    await waitFor(() => expect(screen.queryByRole('group', { name: PAYMENT_METHOD_MSG.chooseTitle })).toBeNull());
    expect(calls.filter((call) => call.path === '/api/payment/methods')).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Pay Now' }));
    await waitFor(() => expect(calls.filter((call) => call.path === '/api/payment/initiate')).toHaveLength(2));
    expect(calls.filter((call) => call.path === '/api/payment/initiate').map((call) => (call.body as { method?: string }).method)).toEqual(['bank_transfer', 'card']);
  });
});
