import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { prefetchRouteData } from './app/prefetch';
import { createQueryClient } from './lib/query-client';
import { registerServiceWorker } from './app/sw-register';
import { localStateNeedsSync } from './lib/local-state-check';
import './styles/index.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
const queryClient = createQueryClient();
prefetchRouteData(queryClient, window.location);
const app = (
  <StrictMode>
    <App client={queryClient} />
  </StrictMode>
);
// Home and how-it-works arrive prerendered and are hydrated in place; every other route gets the
// app shell (header, a loading main, footer) and renders over it. Markup prerendered for another
// path is replaced. The first render is a transition, so React yields to the browser between
// components instead of blocking a slow phone's main thread while the shell is already on screen.
if (root.dataset.prerendered !== undefined && root.dataset.prerendered === window.location.pathname) hydrateRoot(root, app);
else {
  const reactRoot = createRoot(root);
  startTransition(() => reactRoot.render(app));
}

registerServiceWorker();
// The IndexedDB mirror is reconciled after first paint; it only matters when a key was lost, and
// its code (Dexie) is not downloaded at all while there is nothing to reconcile.
void localStateNeedsSync()
  .then(async (needed) => {
    if (!needed) return;
    const { hydrateLocalState } = await import('./lib/hydrate');
    await hydrateLocalState();
  })
  .catch((err: unknown) => console.warn('Could not restore the saved cart', err));
