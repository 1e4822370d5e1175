import { startTransition, useEffect, useRef, useState, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { IsRestoringProvider, QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { persistQueryClientRestore, persistQueryClientSubscribe, type PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
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
    <PersistedQueries client={queryClient} persistOptions={persistOptions} onRestored={() => revalidateRestored(queryClient, startedAt)}>
      {children}
    </PersistedQueries>
  );
}

/**
 * TanStack Query's PersistQueryClientProvider, with one difference: the end of the restore (every
 * query on the screen renders again) is a transition, which React renders in slices that yield to
 * the browser, instead of one long task on a slow phone just after the first screen
 * (docs/performance.md, "The first screen"). As there, queries wait while the persisted cache is
 * restored, and the cache is saved again whenever it changes from then on.
 */
function PersistedQueries({
  client,
  persistOptions,
  onRestored,
  children,
}: {
  client: QueryClient;
  persistOptions: Omit<PersistQueryClientOptions, 'queryClient'>;
  onRestored: () => void;
  children: ReactNode;
}) {
  const [isRestoring, setIsRestoring] = useState(true);
  const restoreStarted = useRef(false);
  const onRestoredRef = useRef(onRestored);
  useEffect(() => {
    onRestoredRef.current = onRestored;
  });
  useEffect(() => {
    const options = { ...persistOptions, queryClient: client };
    if (!restoreStarted.current) {
      restoreStarted.current = true;
      persistQueryClientRestore(options)
        .then(() => onRestoredRef.current())
        .catch((err: unknown) => console.warn('Could not restore the saved answers', err))
        .finally(() => startTransition(() => setIsRestoring(false)));
    }
    return isRestoring ? undefined : persistQueryClientSubscribe(options);
  }, [client, persistOptions, isRestoring]);
  return (
    <QueryClientProvider client={client}>
      <IsRestoringProvider value={isRestoring}>{children}</IsRestoringProvider>
    </QueryClientProvider>
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
