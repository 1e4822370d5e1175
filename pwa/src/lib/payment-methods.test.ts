import { afterEach, describe, expect, it, vi } from 'vitest';
import { describePaymentMethod } from '@contract/payment-methods';
import { createQueryClient, shouldPersistQuery } from './query-client';
import { effectiveMethod, payByPhrase, paymentMethodsQuery } from './payment-methods';

const all = (['card', 'ewallet', 'bank_transfer'] as const).map(describePaymentMethod);

describe('the enabled payment methods in the PWA', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('are kept with the persisted queries (offline, next visit) and fetched without credentials', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ methods: all }), { status: 200, headers: { 'Content-Type': 'application/json' } }));
    vi.stubGlobal('fetch', fetch);
    window.localStorage.setItem('customerToken', 'secret-token');
    const client = createQueryClient();
    expect(await client.fetchQuery(paymentMethodsQuery())).toEqual(all);
    const query = client.getQueryCache().find({ queryKey: paymentMethodsQuery().queryKey });
    expect(query && shouldPersistQuery(query)).toBe(true);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/payment/methods');
    expect(new Headers(init.headers).get('Authorization')).toBeNull();
  });

  it('are named as one phrase', () => {
    expect(payByPhrase(undefined)).toBe('');
    expect(payByPhrase(all.slice(0, 1))).toBe('by card (Visa, Mastercard and American Express)');
    expect(payByPhrase(all.slice(1))).toBe('by mobile money (e-wallet) or bank transfer');
    expect(payByPhrase(all)).toBe('by card (Visa, Mastercard and American Express), mobile money (e-wallet) or bank transfer');
  });

  it('send the choice while it is offered, else the first offered, and nothing while unknown', () => {
    expect(effectiveMethod(all, 'bank_transfer')).toBe('bank_transfer');
    expect(effectiveMethod(all, null)).toBe('card');
    expect(effectiveMethod(all.slice(1), 'card')).toBe('ewallet');
    expect(effectiveMethod([], 'card')).toBeUndefined();
    expect(effectiveMethod(undefined, 'card')).toBeUndefined();
  });
});
