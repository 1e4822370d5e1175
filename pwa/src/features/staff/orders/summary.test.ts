import { describe, expect, it } from 'vitest';
import type { Order } from '@contract/orders';
import { matchesSearch, summarise } from './summary';

const order = (over: Partial<Order>): Order =>
  ({ id: 'ABCDEFGH23', customerName: 'Mpho Dube', customerEmail: 'mpho@example.com', studentName: 'Neo', totalAmount: '10.00', orderStatus: 'pending', paymentStatus: 'pending', ...over }) as Order;

describe('order summary', () => {
  it('counts revenue only from completed payments and processing as paid, being processed and at printers', () => {
    const summary = summarise([
      order({ totalAmount: '25.50', paymentStatus: 'completed', orderStatus: 'paid' }),
      order({ totalAmount: '40.00', paymentStatus: 'completed', orderStatus: 'at_printers' }),
      order({ totalAmount: '99.00', paymentStatus: 'pending', orderStatus: 'being_processed' }),
      order({ totalAmount: '15.00', paymentStatus: 'failed', orderStatus: 'pending' }),
      order({ totalAmount: '10.00', paymentStatus: 'completed', orderStatus: 'delivered' }),
    ]);
    expect(summary).toEqual({ total: 5, pending: 1, processing: 3, delivered: 1, revenue: 'P75.50' });
  });

  it('searches customer, student, e-mail and order number', () => {
    const o = order({});
    expect(['dube', 'NEO', 'mpho@ex', 'abcdefgh', ''].map((q) => matchesSearch(o, q))).toEqual([true, true, true, true, true]);
    expect(matchesSearch(o, 'zz')).toBe(false);
  });
});
