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
export function AppProviders({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [queryClient] = useState(() => client ?? createQueryClient());
  const [persistOptions] = useState(createPersistOptions);
  const [startedAt] = useState(() => Date.now());
  return (
    <PersistQueryClientProvider client={queryClient} persistOptions={persistOptions} onSuccess={() => revalidateRestored(queryClient, startedAt)}>
      {children}
    </PersistQueryClientProvider>
  );
}

/** `client` lets the entry start the current route's requests before the first render. */
export function App({ client }: { client?: QueryClient }) {
  return (
    <AppProviders client={client}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
