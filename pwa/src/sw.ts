/// <reference lib="webworker" />
/**
 * The service worker handles the shell and caches, never business rules (architecture rule 7):
 * precache the app shell, answer navigations with index.html (except API and gateway paths),
 * keep thumbnails and previews of unlocked classes in a bounded CacheFirst cache, and cache no
 * other API call. Nothing is cached for staff: requests carrying a bearer token are skipped, and
 * the app tells the worker when a staff session is active.
 */
import { precacheAndRoute, createHandlerBoundToURL, cleanupOutdatedCaches } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import { flushUploadQueue, UPLOAD_SYNC_TAG } from './lib/upload-queue';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

export const IMAGE_CACHE = 'gallery-images-v1';
const IMAGE_PATH = /^\/api\/images\/\d+\/(thumbnail|watermarked)$/;

let staffSession = false;

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//, /^\/payweb3\//] }));

registerRoute(
  ({ request, url, sameOrigin }) =>
    sameOrigin && request.method === 'GET' && IMAGE_PATH.test(url.pathname) && !request.headers.has('Authorization') && !staffSession,
  // Workbox stores only status 200 by default, so a 401/403 (grant expired) is never cached.
  new CacheFirst({
    cacheName: IMAGE_CACHE,
    plugins: [
      new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true }),
    ],
  }),
);

// Staff screens are left out of the precache so parents never download them. A photographer who
// opened them once must still be able to reopen the upload queue offline at a shoot, so their
// hashed code chunks (code only: no staff data, no API answers) are kept after first use.
const STAFF_CODE_CACHE = 'staff-code-v1';
registerRoute(
  ({ request, url, sameOrigin }) => sameOrigin && request.method === 'GET' && /^\/assets\/staff-[\w-]+\.(js|css)$/.test(url.pathname),
  new CacheFirst({
    cacheName: STAFF_CODE_CACHE,
    plugins: [new ExpirationPlugin({ maxEntries: 30, purgeOnQuotaError: true })],
  }),
);

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data = event.data as { type?: string; active?: boolean } | null;
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
  if (data?.type === 'STAFF_SESSION') {
    staffSession = Boolean(data.active);
    if (staffSession) event.waitUntil(caches.delete(IMAGE_CACHE).then(() => undefined));
  }
});

// Staff photo uploads (issue 5): background sync replays the IndexedDB queue after the network
// returns, even with the tab closed. Rejecting tells the browser to try again later.
self.addEventListener('sync', ((event: ExtendableEvent & { tag?: string }) => {
  if (event.tag !== UPLOAD_SYNC_TAG) return;
  event.waitUntil(
    flushUploadQueue().then((result) => {
      if (result === 'offline' || result === 'retry-later') throw new Error(`Photo uploads paused: ${result}`);
    }),
  );
}) as EventListener);
