/** Paying again starts from the method chosen last (docs/payments.md, "Choosing a method"). */
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PaymentMethodId } from '@contract/payment-methods';
import { describePaymentMethod } from '@contract/payment-methods';
import { createQueryClient } from '../../lib/query-client';
import { fakeFetch } from '../../../test/order-fixture';
import { PaymentMethodChoice, usePaymentMethodChoice } from './payment-method-choice';

function Chooser({ initial = null }: { initial?: PaymentMethodId | null }) {
  const choice = usePaymentMethodChoice(initial);
  return (
    <>
      <PaymentMethodChoice choice={choice} />
      <output aria-label="sends">{choice.method ?? ''}</output>
    </>
  );
}

function start(initial: PaymentMethodId | null = null) {
  const fake = fakeFetch((request) =>
    request.path === '/api/payment/methods' ? { status: 200, body: { methods: (['card', 'ewallet', 'bank_transfer'] as const).map((id) => describePaymentMethod(id)) } } : undefined,
  );
  vi.stubGlobal('fetch', vi.fn(fake.fetch));
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Chooser initial={initial} />
    </QueryClientProvider>,
  );
}

const sends = () => screen.getByRole('status', { name: 'sends' }).textContent;

describe('the payment method choice', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('opens again on the method chosen last (mobile money stays mobile money), still offering the others', async () => {
    start();
    await screen.findByRole('radio', { name: 'Card' });
    expect(sends()).toBe('card');
    await userEvent.click(screen.getByRole('radio', { name: 'Mobile money (e-wallet)' }));
    expect(sends()).toBe('ewallet');
    cleanup();

    // Back from PayGate's page, or another visit: "Pay Order" sends mobile money again.
    start();
    expect(((await screen.findByRole('radio', { name: 'Mobile money (e-wallet)' })) as HTMLInputElement).checked).toBe(true);
    expect(sends()).toBe('ewallet');
    expect(screen.getAllByRole('radio')).toHaveLength(3);
  });

  it("an order's own latest method wins over the device's last choice", async () => {
    window.localStorage.setItem('paymentMethod', 'card');
    start('bank_transfer');
    expect(((await screen.findByRole('radio', { name: 'Bank transfer' })) as HTMLInputElement).checked).toBe(true);
    expect(sends()).toBe('bank_transfer');
  });
});
