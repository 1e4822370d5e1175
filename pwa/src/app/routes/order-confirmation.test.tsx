/**
 * The confirmation page while a payment that settles later waits (docs/payments.md, "The
 * confirmation page"): "Awaiting payment confirmation" with what to do, polled every 3 s like a
 * pending payment, then the usual outcome.
 */
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAYMENT_METHOD_MSG } from '@contract/messages';
import type { Order, OrderSummary } from '@contract/orders';
import { createQueryClient } from '../../lib/query-client';
import { fakeFetch, fullOrder, packageOrder } from '../../../test/order-fixture';
import OrderConfirmation from './order-confirmation';

const ID = 'K7Q2M9XD3P';
const bankTransfer = { method: 'bank_transfer' as const, reference: ID, deadline: '2026-12-04T09:30:00.000Z' };

function open(answers: (Order | OrderSummary)[], query = '?PAY_REQUEST_ID=ABC&TRANSACTION_STATUS=5&RESULT_CODE=990017') {
  let served = 0;
  const fake = fakeFetch((request) => {
    if (request.path !== `/api/orders/${ID}`) return undefined;
    const body = answers[Math.min(served, answers.length - 1)];
    served += 1;
    return { status: 200, body };
  });
  vi.stubGlobal('fetch', vi.fn(fake.fetch));
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[`/order-confirmation/${ID}${query}`]}>
        <Routes>
          <Route path="/order-confirmation/:orderId" element={<OrderConfirmation />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return fake.calls;
}

describe('the confirmation page of a payment that settles later', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the bank transfer reference and deadline in Botswana time, keeps asking, then says Payment Successful', async () => {
    const calls = open([
      fullOrder({ paymentMethod: 'bank_transfer', awaitingPayment: bankTransfer }),
      fullOrder({ paymentMethod: 'bank_transfer', awaitingPayment: bankTransfer }),
      fullOrder({ paymentMethod: 'bank_transfer', paymentStatus: 'completed', orderStatus: 'paid', status: 'paid', gatewayPayMethod: 'BT', gatewayPayMethodDetail: 'SID' }),
    ]);
    const heading = await screen.findByRole('heading', { level: 1, name: PAYMENT_METHOD_MSG.awaitingTitle });
    const box = heading.closest('[role="status"]') as HTMLElement;
    // 09:30 UTC is 11:30 in Gaborone.
    expect(within(box).getByText(PAYMENT_METHOD_MSG.awaitingBankTransfer(ID, '4 Dec 2026, 11:30'))).toBeTruthy();
    expect(within(box).getByText(PAYMENT_METHOD_MSG.awaitingReference).nextElementSibling?.textContent).toBe(ID);
    expect(within(box).getByText(PAYMENT_METHOD_MSG.awaitingDeadline).nextElementSibling?.textContent).toBe('4 Dec 2026, 11:30');
    expect(within(box).getByText('Checking payment status')).toBeTruthy();
    // Nothing to try again while the money is on its way.
    expect(screen.queryByRole('link', { name: 'Try Again' })).toBeNull();

    await screen.findByRole('heading', { level: 1, name: 'Payment Successful' }, { timeout: 8000 });
    expect(calls.filter((call) => call.path === `/api/orders/${ID}`).length).toBeGreaterThanOrEqual(3);
  }, 15_000);

  it('asks to confirm on the phone for mobile money, also to a reader with only the order id, and shows a decline as usual', async () => {
    const summary = (over: Partial<OrderSummary>): OrderSummary => ({
      id: ID,
      orderStatus: 'pending',
      status: 'pending',
      paymentStatus: 'pending',
      totalAmount: '25.00',
      testPayment: true,
      awaitingPayment: null,
      summary: true,
      ...over,
    });
    open([summary({ awaitingPayment: { method: 'ewallet', reference: ID, deadline: null } }), summary({ paymentStatus: 'failed' })], '');
    await screen.findByRole('heading', { level: 1, name: PAYMENT_METHOD_MSG.awaitingTitle });
    expect(screen.getByText(PAYMENT_METHOD_MSG.awaitingEwallet)).toBeTruthy();
    expect(screen.queryByText(PAYMENT_METHOD_MSG.awaitingReference)).toBeNull();

    await screen.findByRole('heading', { level: 1, name: 'Payment Failed' }, { timeout: 8000 });
    // This reader cannot see the order's lines: paying again starts with signing in (My Orders), not an empty checkout.
    expect(screen.getByRole('link', { name: 'Try Again' }).getAttribute('href')).toBe('/customer/auth');
  }, 15_000);
});

describe('the confirmation page of a package order with discounts', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the package with its contents, then subtotal, sibling discount and coupon above the total', async () => {
    open([packageOrder({ id: ID })], '?PAY_REQUEST_ID=ABC&TRANSACTION_STATUS=1&RESULT_CODE=990017');
    await screen.findByRole('heading', { level: 1, name: 'Payment Successful' });
    const pack = screen.getByRole('listitem', { name: 'Family Pack for Tumelo Dube' });
    expect(within(pack).getByRole('list', { name: 'Contains: Family Pack' }).textContent).toContain('2 x Glossy Print, Photo 502');
    const discounts = screen.getByLabelText('Discounts');
    expect(discounts.textContent).toBe('SubtotalP130.00Sibling discount-P13.00Coupon SPRING10-P11.70');
    const total = document.querySelector('.card .total-row') as HTMLElement;
    expect(total.textContent).toBe('TotalP105.30');
    // The discounts come before the total on the page.
    expect(discounts.compareDocumentPosition(total) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
