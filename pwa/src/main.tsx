import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { prefetchRouteData } from './app/prefetch';
import { keepShownGallery, seedGalleryPage } from './app/gallery-page';
import { createQueryClient } from './lib/query-client';
import { registerServiceWorker } from './app/sw-register';
import { localStateNeedsSync } from './lib/local-state-check';
import { getStaffToken } from './lib/storage';
import './styles/index.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
const queryClient = createQueryClient();

/** A new task: the browser may paint and answer input before the next start-up step runs. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Start-up in short tasks, so a slow phone's main thread is never blocked long at a stretch:
 * evaluating the scripts is one task; the first read of local storage, which opens this site's
 * storage with a synchronous round trip to the browser (tens of milliseconds on a busy phone), is
 * the next one on its own; then the first render, which React splits further (a transition).
 */
async function start(container: HTMLElement): Promise<void> {
  await nextTask();
  getStaffToken();
  await nextTask();
  // Answers from now on belong to this visit: the persisted ones restored later are older.
  const visitStartedAt = Date.now();
  seedGalleryPage(queryClient, window.location);
  prefetchRouteData(queryClient, window.location);
  const app = (
    <StrictMode>
      <App client={queryClient} startedAt={visitStartedAt} />
    </StrictMode>
  );
  // Home and how-it-works arrive prerendered and are hydrated in place; every other route gets the
  // app shell (header, a loading main, footer) and renders over it. Markup prerendered for another
  // path is replaced. Either way the first render, hydration included, is a transition, so React
  // yields to the browser between components instead of blocking a slow phone's main thread while
  // the page is already on screen (docs/performance.md, "The first screen").
  if (container.dataset.prerendered !== undefined && container.dataset.prerendered === window.location.pathname) startTransition(() => void hydrateRoot(container, app));
  else {
    const reactRoot = createRoot(container);
    startTransition(() => reactRoot.render(app));
  }
}
void start(root).then(() => {
  registerServiceWorker(() => keepShownGallery(queryClient));
  // The IndexedDB mirror is reconciled after first paint; it only matters when a key was lost, and
  // its code (Dexie) is not downloaded at all while there is nothing to reconcile.
  void localStateNeedsSync()
    .then(async (needed) => {
      if (!needed) return;
      const { hydrateLocalState } = await import('./lib/hydrate');
      await hydrateLocalState();
    })
    .catch((err: unknown) => console.warn('Could not restore the saved cart', err));
});
