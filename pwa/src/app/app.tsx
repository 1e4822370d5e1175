import { useState, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import type { QueryClient } from '@tanstack/react-query';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { createPersistOptions, createQueryClient, revalidateRestored } from '../lib/query-client';
import { AppRoutes } from './router';

/**
 * The providers every screen runs in. The build's prerender renders the same tree (with a static
 * router), so a prerendered page hydrates without a mismatch: the persisted queries are restored
 * only after the first render, on the client as on the server.
 */
export function AppProviders({ children, client, startedAt: visitStart }: { children: ReactNode; client?: QueryClient; startedAt?: number }) {
  const [queryClient] = useState(() => client ?? createQueryClient());
  const [persistOptions] = useState(createPersistOptions);
  const [startedAt] = useState(() => visitStart ?? Date.now());
  return (
    <PersistQueryClientProvider client={queryClient} persistOptions={persistOptions} onSuccess={() => revalidateRestored(queryClient, startedAt)}>
      {children}
    </PersistQueryClientProvider>
  );
}

/**
 * `client` lets the entry start the current route's requests (or fill in the answers the page came
 * with) before the first render; `startedAt` is when it did, so those count as fresh.
 */
export function App({ client, startedAt }: { client?: QueryClient; startedAt?: number }) {
  return (
    <AppProviders client={client} startedAt={startedAt}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
