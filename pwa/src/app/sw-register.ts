/**
 * Registers the service worker through workbox-window and offers "update available" with a Reload
 * action; the new worker takes over only when the parent asks (skipWaiting on message).
 * `onFirstControl` runs when the first worker this browser installs takes over the open page.
 */
import { Workbox } from 'workbox-window';
import { toast } from '../components/ui/toast';
import { PWA_MSG } from '@contract/pwa-messages';

export function registerServiceWorker(onFirstControl?: () => Promise<void>): void {
  if (!('serviceWorker' in navigator) || !import.meta.env.PROD) return;
  const wb = new Workbox('/sw.js', { scope: '/' });
  wb.addEventListener('controlling', (event) => {
    if (!event.isUpdate) void onFirstControl?.().catch((err: unknown) => console.warn('Could not keep this page for offline use', err));
  });
  wb.addEventListener('waiting', () => {
    toast({
      title: PWA_MSG.updateAvailableTitle,
      description: PWA_MSG.updateAvailable,
      duration: Infinity,
      action: {
        label: 'Reload',
        altText: 'Reload to update the app',
        onClick: () => {
          wb.addEventListener('controlling', () => window.location.reload());
          wb.messageSkipWaiting();
        },
      },
    });
  });
  wb.register().catch((err: unknown) => console.warn('Service worker registration failed', err));
}
