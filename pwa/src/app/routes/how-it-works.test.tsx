/**
 * How-it-works names exactly the enabled payment methods (docs/payments.md, "Choosing a method"):
 * the build's prerender, which cannot know them, names none; the page hydrates over that markup
 * without a mismatch and then names the ones `GET /api/payment/methods` answers, in the step and
 * in the payment note alike. Rendered by the client alone, it names them as soon as they are known.
 */
import { act, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describePaymentMethod, type PaymentMethodId } from '@contract/payment-methods';
import { createQueryClient } from '../../lib/query-client';
import { fakeFetch } from '../../../test/order-fixture';
import HowItWorks from './how-it-works';

const serve = (...ids: PaymentMethodId[]) => {
  const fake = fakeFetch((request) => (request.path === '/api/payment/methods' ? { status: 200, body: { methods: ids.map(describePaymentMethod) } } : undefined));
  vi.stubGlobal('fetch', vi.fn(fake.fetch));
  return fake.calls;
};

const page = (client = createQueryClient()) => (
  <QueryClientProvider client={client}>
    <MemoryRouter initialEntries={['/how-it-works']}>
      <HowItWorks />
    </MemoryRouter>
  </QueryClientProvider>
);

const stepText = (root: ParentNode) => [...root.querySelectorAll('ol.steps li')].find((li) => li.textContent?.includes('Secure payment'))?.querySelector('p')?.textContent;
const noteText = (root: ParentNode) => [...root.querySelectorAll('section h3')].find((h) => h.textContent === 'Payment & Currency')?.nextElementSibling?.textContent;

describe('how it works names the enabled payment methods', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('prerendered, names none; hydrated, names exactly the enabled ones in both places', async () => {
    serve('card', 'ewallet', 'bank_transfer');
    const html = renderToString(page());
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.appendChild(container);
    expect(stepText(container)).toBe('Check out with your contact details and pay on PayGate’s secure payment page.');
    expect(noteText(container)).toBe('Prices are in Botswana Pula (BWP) and shown like P25.00. You pay on PayGate’s secure page.');

    // The entry's prefetch (or the persisted cache) may already hold the answer when hydration starts.
    const client = createQueryClient();
    client.setQueryData(['payment', 'methods'], (['card', 'ewallet', 'bank_transfer'] as const).map(describePaymentMethod));
    const recoverable = vi.fn();
    const root = await act(async () => hydrateRoot(container, page(client), { onRecoverableError: recoverable }));
    await screen.findByText(/by card \(Visa, Mastercard and American Express\), mobile money \(e-wallet\) or bank transfer on PayGate/);
    expect(recoverable).not.toHaveBeenCalled();
    expect(stepText(container)).toBe(
      'Check out with your contact details and pay by card (Visa, Mastercard and American Express), mobile money (e-wallet) or bank transfer on PayGate’s secure payment page.',
    );
    expect(noteText(container)).toBe(
      'Prices are in Botswana Pula (BWP) and shown like P25.00. You pay on PayGate’s secure page by card (Visa, Mastercard and American Express), mobile money (e-wallet) or bank transfer; we never see your card number.',
    );
    act(() => root.unmount());
    container.remove();
  });

  it('with card only (the default), says card and nothing else', async () => {
    serve('card');
    const { container } = render(page());
    await screen.findByText(/pay by card \(Visa, Mastercard and American Express\) on PayGate/);
    expect(noteText(container)).toBe('Prices are in Botswana Pula (BWP) and shown like P25.00. You pay on PayGate’s secure page by card (Visa, Mastercard and American Express); we never see your card number.');
    expect(container.textContent).not.toMatch(/bank transfer|mobile money/i);
  });

  it('without cards, does not speak of card numbers', async () => {
    serve('bank_transfer');
    const { container } = render(page());
    await screen.findByText(/pay by bank transfer on PayGate/);
    expect(noteText(container)).toBe('Prices are in Botswana Pula (BWP) and shown like P25.00. You pay on PayGate’s secure page by bank transfer.');
  });
});
