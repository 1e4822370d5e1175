import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HARDENING_MSG, PAYMENT_METHOD_MSG } from '@contract/messages';
import type { Order } from '@contract/orders';
import { OrderRow } from './order-row';
import { OrderDetailDialog } from './order-detail-dialog';
import { fullOrder, orderItem } from '../../../../test/order-fixture';

/** A cancelled order that was paid anyway (docs/payments.md, "Paid after cancellation"). */
const paidAfterCancel: Order = fullOrder({
  id: 'K7Q2M9XD3PABC',
  totalAmount: '30.00',
  orderStatus: 'cancelled',
  status: 'cancelled',
  items: [orderItem({ productType: '5', unitPrice: '30.00', totalPrice: '30.00' })],
  paidAfterCancel: 1,
});

describe('a cancelled order paid anyway, in order management', () => {
  it('is flagged for a refund in its row', () => {
    render(<OrderRow order={paidAfterCancel} onView={() => undefined} onStatus={() => undefined} busy={false} />);
    const row = screen.getByRole('listitem', { name: `Order ${paidAfterCancel.id}` });
    expect(within(row).getByText('Paid after cancellation: refund')).toBeTruthy();
    expect(within(row).queryByText(HARDENING_MSG.paidTwice(1))).toBeNull();
  });

  it('and in its details, with what to do', () => {
    render(<OrderDetailDialog order={paidAfterCancel} onClose={() => undefined} />);
    const alert = screen.getAllByRole('alert').find((el) => el.textContent?.includes(HARDENING_MSG.paidAfterCancelHelp));
    expect(alert?.textContent).toContain('Paid after cancellation: refund');
  });

  it('says how many payments to refund when there were several', () => {
    render(<OrderRow order={{ ...paidAfterCancel, paidAfterCancel: 2 }} onView={() => undefined} onStatus={() => undefined} busy={false} />);
    expect(screen.getByText(HARDENING_MSG.paidAfterCancel(2))).toBeTruthy();
  });
});

/** A bank transfer confirmed after it had expired (docs/payments.md, "Payments that settle later"). */
const paidAfterExpiry: Order = {
  ...paidAfterCancel,
  id: 'BT7Q2M9XD3P',
  orderStatus: 'paid',
  status: 'paid',
  paymentStatus: 'completed',
  paidAfterCancel: 0,
  paymentMethod: 'bank_transfer',
  gatewayPayMethod: 'BT',
  gatewayPayMethodDetail: 'SID',
  paidAfterExpiry: 1,
};

describe('payment methods in order management', () => {
  it('flags a payment confirmed after expiry in its row, and names the method and what the gateway reported', () => {
    render(<OrderRow order={paidAfterExpiry} onView={() => undefined} onStatus={() => undefined} busy={false} />);
    const row = screen.getByRole('listitem', { name: `Order ${paidAfterExpiry.id}` });
    expect(within(row).getByText(PAYMENT_METHOD_MSG.paidAfterExpiry)).toBeTruthy();
    expect(within(row).getByText('Bank transfer · Gateway: BT (SID)')).toBeTruthy();
    expect(within(row).queryByText(HARDENING_MSG.paidAfterCancel(1))).toBeNull();
  });

  it('explains the flag in the details and lists the payment method', () => {
    render(<OrderDetailDialog order={paidAfterExpiry} onClose={() => undefined} />);
    const alert = screen.getAllByRole('alert').find((el) => el.textContent?.includes(PAYMENT_METHOD_MSG.paidAfterExpiryHelp));
    expect(alert?.textContent).toContain('Paid after expiry: check');
    expect(screen.getByText(PAYMENT_METHOD_MSG.staffTerm).nextElementSibling?.textContent).toBe('Bank transfer · Gateway: BT (SID)');
  });

  it('shows a payment still awaiting confirmation, and nothing about methods for an order without one', () => {
    const awaiting: Order = {
      ...paidAfterExpiry,
      orderStatus: 'pending',
      status: 'pending',
      paymentStatus: 'pending',
      gatewayPayMethod: null,
      gatewayPayMethodDetail: null,
      paidAfterExpiry: 0,
      awaitingPayment: { method: 'bank_transfer', reference: 'BT7Q2M9XD3P', deadline: '2026-12-04T09:30:00.000Z' },
    };
    const { unmount } = render(<OrderRow order={awaiting} onView={() => undefined} onStatus={() => undefined} busy={false} />);
    const row = screen.getByRole('listitem', { name: `Order ${awaiting.id}` });
    expect(within(row).getByText(PAYMENT_METHOD_MSG.awaitingTitle)).toBeTruthy();
    expect(within(row).getByText('Bank transfer')).toBeTruthy();
    expect(within(row).queryByText(PAYMENT_METHOD_MSG.paidAfterExpiry)).toBeNull();
    unmount();

    render(<OrderDetailDialog order={{ ...paidAfterCancel, paidAfterCancel: 0 }} onClose={() => undefined} />);
    expect(screen.queryByText(PAYMENT_METHOD_MSG.staffTerm)).toBeNull();
    expect(screen.queryByText(PAYMENT_METHOD_MSG.paidAfterExpiry)).toBeNull();
  });
});
