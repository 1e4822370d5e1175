/**
 * TanStack Query with the app's defaults (no retries, data never stale, no refetch on focus),
 * persisted to local storage so a school and class opened once still show offline. Only queries
 * marked meta.persist are written (school, classes, photo lists, products); orders with personal
 * data and anything fetched during a staff session never are.
 */
import { QueryClient, onlineManager, type Query } from '@tanstack/react-query';
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import type { PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import { getStaffToken } from './storage';

export const QUERY_CACHE_KEY = 'lesedi-query-cache';
const DAY_MS = 24 * 60 * 60 * 1000;

export function createQueryClient(): QueryClient {
  // Query v5 assumes "online" until an event says otherwise; an offline start must pause fetches
  // (keeping the persisted data on screen) instead of failing them.
  if (typeof navigator !== 'undefined' && typeof navigator.onLine === 'boolean') onlineManager.setOnline(navigator.onLine);
  return new QueryClient({
    defaultOptions: {
      // The build's prerender has no window: no garbage-collection timer may keep it running.
      queries: { retry: false, staleTime: Infinity, refetchOnWindowFocus: false, gcTime: typeof window === 'undefined' ? Infinity : 7 * DAY_MS },
      mutations: { retry: false },
    },
  });
}

/**
 * Data is never stale within a visit, but what was restored from an earlier
 * visit may be days old: it is shown at once and fetched again once (new photos, new prices).
 * Offline, the fetch waits and the restored data stays on screen.
 */
export function revalidateRestored(client: QueryClient, since: number): Promise<void> {
  // Answers fetched during this visit (the entry's prefetch) are already fresh: not twice.
  return client.invalidateQueries({ predicate: (query) => query.meta?.persist === true && query.state.dataUpdatedAt < since });
}

/**
 * The gallery cookie's grant decides every gallery answer (docs/access.md#the-visibility-rule):
 * after a grant changes (a child's code added or forgotten, a school or class unlocked) every
 * school, class, photo and product list and the server's list of unlocked children is fetched
 * again. A sibling in a class already open would otherwise show the class as it was before.
 */
export function refreshAfterGrantChange(client: QueryClient): Promise<void> {
  return client.invalidateQueries({
    predicate: (query) => query.meta?.persist === true || (query.queryKey[0] === 'students' && query.queryKey[1] === 'unlocked'),
  });
}

export function shouldPersistQuery(query: Pick<Query, 'meta' | 'state'>): boolean {
  return query.state.status === 'success' && query.meta?.persist === true && !getStaffToken();
}

export function createPersistOptions(): Omit<PersistQueryClientOptions, 'queryClient'> {
  const storage = (() => {
    try {
      return window.localStorage;
    } catch {
      return undefined;
    }
  })();
  return {
    persister: createSyncStoragePersister({ storage, key: QUERY_CACHE_KEY, throttleTime: 1000 }),
    maxAge: 7 * DAY_MS,
    buster: 'v1',
    dehydrateOptions: { shouldDehydrateQuery: shouldPersistQuery },
  };
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { persist?: boolean };
  }
}
