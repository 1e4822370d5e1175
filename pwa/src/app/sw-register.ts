/**
 * Registers the service worker once the page has loaded and offers "update available" with a
 * Reload action; the new worker takes over only when the parent asks (SKIP_WAITING message, then
 * the page reloads under it). `onFirstControl` runs when the first worker this browser installs
 * takes over the open page. The browser's own API, not workbox-window: its 1.5 KiB compressed were
 * part of every first visit for these few lines (docs/performance.md, "What loads when").
 */
import { toast } from '../components/ui/toast';
import { PWA_MSG } from '@contract/pwa-messages';

export function registerServiceWorker(onFirstControl?: () => Promise<void>): void {
  if (!('serviceWorker' in navigator) || !import.meta.env.PROD) return;
  void watchServiceWorker(navigator.serviceWorker, onFirstControl);
}

/** What registerServiceWorker does, on the given container and with the given reload (a test passes its own). */
export async function watchServiceWorker(
  container: ServiceWorkerContainer,
  onFirstControl?: () => Promise<void>,
  reload: () => void = () => window.location.reload(),
): Promise<void> {
  // Not before the page's own downloads are done, as workbox-window did.
  if (document.readyState !== 'complete') await new Promise((resolve) => window.addEventListener('load', resolve, { once: true }));
  let firstControl = container.controller === null;
  let reloadOnControl = false;
  container.addEventListener('controllerchange', () => {
    if (reloadOnControl) reload();
    else if (firstControl) {
      firstControl = false;
      void onFirstControl?.().catch((err: unknown) => console.warn('Could not keep this page for offline use', err));
    }
  });

  let offered: ServiceWorker | null = null;
  const offerUpdate = (waiting: ServiceWorker | null) => {
    // Only an update waits behind a worker in charge; the first install takes over by itself.
    if (!waiting || waiting === offered || container.controller === null) return;
    offered = waiting;
    toast({
      title: PWA_MSG.updateAvailableTitle,
      description: PWA_MSG.updateAvailable,
      duration: Infinity,
      action: {
        label: 'Reload',
        altText: 'Reload to update the app',
        onClick: () => {
          reloadOnControl = true;
          waiting.postMessage({ type: 'SKIP_WAITING' });
        },
      },
    });
  };

  try {
    const registration = await container.register('/sw.js', { scope: '/' });
    offerUpdate(registration.waiting);
    registration.addEventListener('updatefound', () => {
      const installing = registration.installing;
      installing?.addEventListener('statechange', () => {
        if (installing.state === 'installed') offerUpdate(installing);
      });
    });
  } catch (err) {
    console.warn('Service worker registration failed', err);
  }
}
