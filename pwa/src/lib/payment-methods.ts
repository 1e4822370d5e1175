/**
 * The payment methods the server offers (`GET /api/payment/methods`, docs/payments.md "Choosing a
 * method"): the checkout's choice and the how-it-works page's list. A few hundred bytes that change
 * only when the server is reconfigured, so the answer is kept with the persisted queries (shown at
 * once on the next visit and offline, fetched again once per visit) and counts as fresh for ten
 * minutes within a visit. A refused method (400 PAYMENT_METHOD_NOT_ENABLED) fetches it again.
 * Only types come from the contract: this module is part of the first visit's download.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { PaymentMethod, PaymentMethodId, PaymentMethodsResponse } from '@contract/payment-methods';
import { PAYMENT_METHOD_NAMES, payByNames } from '@contract/first-visit-messages';
import { apiRequest } from './api-client';

export const paymentMethodsKey = ['payment', 'methods'] as const;
const TEN_MINUTES_MS = 10 * 60 * 1000;

/** `cache: 'no-cache'` goes past the browser's HTTP cache (the server lets it keep the answer a few minutes). */
const fetchPaymentMethods = async (signal?: AbortSignal, cache?: RequestCache) =>
  (await apiRequest<PaymentMethodsResponse>('/api/payment/methods', { signal, auth: 'none', cache })).methods;

export const paymentMethodsQuery = () =>
  queryOptions({
    queryKey: paymentMethodsKey,
    queryFn: ({ signal }) => fetchPaymentMethods(signal),
    staleTime: TEN_MINUTES_MS,
    meta: { persist: true },
  });

/** The list as the server has it now, after it refused a method: never an answer cached by the browser. */
export const refreshPaymentMethods = (client: QueryClient) =>
  client.fetchQuery({ ...paymentMethodsQuery(), queryFn: ({ signal }) => fetchPaymentMethods(signal, 'no-cache'), staleTime: 0 });

/** "by card (…), mobile money (e-wallet) or bank transfer"; empty while the methods are not known. */
export function payByPhrase(methods: readonly Pick<PaymentMethod, 'id'>[] | undefined): string {
  return payByNames((methods ?? []).map((method) => PAYMENT_METHOD_NAMES[method.id]));
}

/** The method to send with a payment: the parent's choice when it is still offered, else the first offered. */
export function effectiveMethod(methods: readonly Pick<PaymentMethod, 'id'>[] | undefined, chosen: PaymentMethodId | null): PaymentMethodId | undefined {
  const offered = methods?.find((method) => method.id === chosen) ?? methods?.[0];
  return offered?.id;
}
