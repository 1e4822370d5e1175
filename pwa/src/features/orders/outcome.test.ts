import { describe, expect, it } from 'vitest';
import { confirmationState, readGatewayOutcome } from './outcome';

describe('gateway return parameters', () => {
  it.each([
    ['1', '990017', 'success'],
    ['2', '900007', 'declined'],
    ['4', '990028', 'cancelled'],
    ['3', '990028', 'cancelled'],
    ['2', '900001', 'insufficient_funds'],
    ['2', '900003', 'insufficient_funds'],
    ['0', '990022', 'failed'],
    ['7', '', 'failed'],
    ['5', '990017', 'received'],
  ] as const)('TRANSACTION_STATUS %s with RESULT_CODE %s is %s', (status, code, expected) => {
    expect(readGatewayOutcome(status, code)).toBe(expected);
  });

  it('is absent without parameters', () => {
    expect(readGatewayOutcome(null, null)).toBeNull();
    expect(readGatewayOutcome('', '')).toBeNull();
  });
});

describe('what the confirmation page shows', () => {
  it('is Payment Successful when completed and paid, whatever the query string says', () => {
    expect(confirmationState({ paymentStatus: 'completed', orderStatus: 'paid' }, null)).toBe('successful');
    expect(confirmationState({ paymentStatus: 'completed', orderStatus: 'paid' }, 'declined')).toBe('successful');
  });

  it('waits (Payment Pending) while the server has not confirmed an approved payment', () => {
    expect(confirmationState({ paymentStatus: 'pending', orderStatus: 'pending' }, 'success')).toBe('pending');
    expect(confirmationState({ paymentStatus: 'pending', orderStatus: 'pending' }, null)).toBe('pending');
  });

  it('says Order Cancelled, without waiting, for an order cancelled while it was being paid', () => {
    expect(confirmationState({ paymentStatus: 'pending', orderStatus: 'cancelled' }, 'success')).toBe('orderCancelled');
    expect(confirmationState({ paymentStatus: 'pending', orderStatus: 'cancelled' }, null)).toBe('orderCancelled');
    expect(confirmationState({ paymentStatus: 'pending', orderStatus: 'cancelled' }, 'declined')).toBe('declined');
  });

  it('shows the gateway outcome of a failed payment', () => {
    expect(confirmationState({ paymentStatus: 'pending', orderStatus: 'pending' }, 'declined')).toBe('declined');
    expect(confirmationState({ paymentStatus: 'failed', orderStatus: 'pending' }, 'insufficient_funds')).toBe('insufficient_funds');
    expect(confirmationState({ paymentStatus: 'failed', orderStatus: 'pending' }, null)).toBe('failed');
  });
});

describe('a payment that settles later (docs/payments.md, "Payments that settle later")', () => {
  const bank = { method: 'bank_transfer' as const, reference: 'K7Q2M9XD3P', deadline: '2026-12-04T09:30:00.000Z' };

  it('is Awaiting payment confirmation while the order waits for it, whatever the return said', () => {
    expect(confirmationState({ paymentStatus: 'pending', orderStatus: 'pending', awaitingPayment: bank }, 'received')).toBe('awaiting');
    expect(confirmationState({ paymentStatus: 'pending', orderStatus: 'pending', awaitingPayment: bank }, null)).toBe('awaiting');
    expect(confirmationState({ paymentStatus: 'pending', orderStatus: 'pending', awaitingPayment: { method: 'ewallet', reference: 'K7Q2M9XD3P', deadline: null } }, 'success')).toBe('awaiting');
  });

  it('waits as pending, not failed, when the gateway said received before the order knows', () => {
    expect(confirmationState({ paymentStatus: 'pending', orderStatus: 'pending', awaitingPayment: null }, 'received')).toBe('pending');
  });

  it('turns to the usual outcome once it settles', () => {
    expect(confirmationState({ paymentStatus: 'completed', orderStatus: 'paid', awaitingPayment: null }, 'received')).toBe('successful');
    expect(confirmationState({ paymentStatus: 'failed', orderStatus: 'pending', awaitingPayment: null }, 'received')).toBe('failed');
    expect(confirmationState({ paymentStatus: 'pending', orderStatus: 'cancelled', awaitingPayment: bank }, 'received')).toBe('orderCancelled');
  });
});
