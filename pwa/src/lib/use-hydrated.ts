import { useSyncExternalStore } from 'react';

const noSubscription = () => () => undefined;

/**
 * False while a prerendered page is being hydrated (and during the prerender itself), true from
 * then on and on any page rendered by the client alone. A prerendered screen shows what it was
 * built with until then: whatever the client already knows (a school list that arrived first)
 * would otherwise differ from the markup and make React throw it away.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
