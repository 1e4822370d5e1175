/// <reference lib="webworker" />
/**
 * The service worker handles the shell and caches, never business rules: precache what a parent's
 * first visit runs (the prerendered home and how-it-works pages are served for their own paths;
 * other screens' code is cached when first used), answer every other
 * navigation with the app shell (except API, gateway and short-link /s/ paths), keep what an unlocked class needs
 * to open again offline, and cache no other API call. Gallery data (school, classes, products,
 * photo lists) is NetworkFirst with a short timeout, so a class opens offline however soon after
 * it was loaded; thumbnails and previews are CacheFirst in a bounded cache. Nothing is cached for
 * staff: requests carrying a bearer token are skipped, and the app tells the worker when a staff
 * session is active. A 401 on any gallery call (the school's grant lapsed) empties both caches, a
 * 403 drops the refused answer; a logout empties them too (the page does it).
 */
import { precacheAndRoute, createHandlerBoundToURL, cleanupOutdatedCaches } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import { clientsClaim, type WorkboxPlugin } from 'workbox-core';
import { flushQueue, UPLOAD_SYNC_TAG, type FlushResult } from './lib/upload-flush';
import { idbQueueStore, openUploadQueue } from './lib/upload-queue-idb';
import { createFetchTransport } from './lib/upload-transport';
import { GALLERY_DATA_CACHE, GALLERY_DATA_PATH, GALLERY_IMAGE_CACHE, GALLERY_IMAGE_PATH, GALLERY_PURGED, pruneGalleryImages, purgeGalleryCaches } from './lib/offline-caches';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

const SMALL_THUMBNAIL = 'size=small';

let staffSession = false;

// The first visit's worker takes over the open page at once, so the thumbnails and photo list of
// that visit are already cached. A later version waits until the parent accepts the update.
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

registerRoute(new NavigationRoute(createHandlerBoundToURL('/app-shell.html'), { denylist: [/^\/api\//, /^\/payweb3\//, /^\/s\//] }));

const forParents = (request: Request) => request.method === 'GET' && !request.headers.has('Authorization') && !staffSession;

/**
 * A refused answer: 401 means the school's grant is gone, so nothing of the gallery may stay on the
 * device; 403 refuses one protected class, whose kept answer goes.
 */
const purgeOnDenied: WorkboxPlugin = {
  fetchDidSucceed: async ({ request, response }) => {
    if (response.status === 401) await purgeGallery();
    else if (response.status === 403) await (await caches.open(GALLERY_DATA_CACHE)).delete(request, { ignoreVary: true });
    return response;
  },
};

/** How often at most the kept images are checked again while the worker runs. */
const PRUNE_EVERY_MS = 10 * 60_000;
let prunedAt = 0;

/**
 * The first gallery answer from the network in a visit (the device is online) checks the kept
 * images: those of a photo since erased, withdrawn or moved are dropped (docs/access.md, "Images
 * kept on the device"), so CacheFirst never shows them again.
 */
const pruneWhenOnline: WorkboxPlugin = {
  fetchDidSucceed: async ({ response, event }) => {
    if (response.ok && Date.now() - prunedAt > PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      const pruning = pruneGalleryImages().catch(() => 0);
      (event as ExtendableEvent | undefined)?.waitUntil(pruning);
    }
    return response;
  },
};

/** When the gallery caches were last emptied (a logout, a lapsed grant, a staff session). */
let purgedAt = 0;

/** Empties the gallery caches, and keeps out every answer to a request made before now. */
async function purgeGallery(): Promise<void> {
  purgedAt = Date.now();
  await purgeGalleryCaches();
}

/**
 * An answer to a request made before the caches were last emptied is not kept: a logout while a
 * gallery answer was on its way would otherwise find that answer cached right after it.
 */
const notFromBeforePurge: WorkboxPlugin = {
  requestWillFetch: async ({ request, state }) => {
    if (state) state.startedAt = Date.now();
    return request;
  },
  cacheWillUpdate: async ({ response, state }) => ((state?.startedAt as number | undefined ?? 0) < purgedAt ? null : response),
};

/** Only complete answers are kept (never an error, never a partial body). */
const onlyOk: WorkboxPlugin = {
  cacheWillUpdate: async ({ response }) => (response.status === 200 ? response : null),
};

registerRoute(
  ({ request, url, sameOrigin }) => sameOrigin && GALLERY_DATA_PATH.test(url.pathname) && forParents(request),
  new NetworkFirst({
    cacheName: GALLERY_DATA_CACHE,
    networkTimeoutSeconds: 4,
    matchOptions: { ignoreVary: true },
    plugins: [purgeOnDenied, pruneWhenOnline, notFromBeforePurge, onlyOk, new ExpirationPlugin({ maxEntries: 200, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true })],
  }),
);

/**
 * The grid asks for the small or the full thumbnail depending on the screen; offline, either one
 * already cached is better than a broken image.
 */
const otherThumbnailSize: WorkboxPlugin = {
  handlerDidError: async ({ request }) => {
    const url = new URL(request.url);
    if (!url.pathname.endsWith('/thumbnail')) return undefined;
    const other = url.search.includes(SMALL_THUMBNAIL) ? url.pathname : `${url.pathname}?${SMALL_THUMBNAIL}`;
    const cache = await caches.open(GALLERY_IMAGE_CACHE);
    return (await cache.match(other, { ignoreVary: true })) ?? undefined;
  },
};

registerRoute(
  ({ request, url, sameOrigin }) => sameOrigin && GALLERY_IMAGE_PATH.test(url.pathname) && forParents(request),
  new CacheFirst({
    cacheName: GALLERY_IMAGE_CACHE,
    matchOptions: { ignoreVary: true },
    plugins: [
      purgeOnDenied,
      notFromBeforePurge,
      onlyOk,
      otherThumbnailSize,
      new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true }),
    ],
  }),
);

// The precache holds only what a parent's first visit runs (home, how-it-works, a school gallery):
// everything it lists is downloaded during that visit. Other screens' code (checkout, account,
// orders, a family's children, staff) is kept here once used, so a screen opened once opens again
// offline. Staff chunks keep their own cache: a photographer who opened them once must be able to
// reopen the upload queue offline at a shoot. Code only (hashed, immutable): no data, no API answers.
const APP_CODE_CACHE = 'app-code-v1';
const STAFF_CODE_CACHE = 'staff-code-v1';
const HASHED_CODE = /^\/assets\/[\w-]+-[\w-]{8,}\.(js|css)$/;
const STAFF_CODE = /^\/assets\/staff-[\w-]+\.(js|css)$/;
registerRoute(
  ({ request, url, sameOrigin }) => sameOrigin && request.method === 'GET' && STAFF_CODE.test(url.pathname),
  new CacheFirst({
    cacheName: STAFF_CODE_CACHE,
    plugins: [onlyOk, new ExpirationPlugin({ maxEntries: 30, purgeOnQuotaError: true })],
  }),
);
registerRoute(
  ({ request, url, sameOrigin }) => sameOrigin && request.method === 'GET' && HASHED_CODE.test(url.pathname) && !STAFF_CODE.test(url.pathname),
  new CacheFirst({
    cacheName: APP_CODE_CACHE,
    plugins: [onlyOk, new ExpirationPlugin({ maxEntries: 60, purgeOnQuotaError: true })],
  }),
);

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data = event.data as { type?: string; active?: boolean } | null;
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
  if (data?.type === 'STAFF_SESSION') {
    staffSession = Boolean(data.active);
    if (staffSession) event.waitUntil(purgeGallery());
  }
  // The page emptied the caches (a logout): answers already on their way are not kept either.
  if (data?.type === GALLERY_PURGED) event.waitUntil(purgeGallery());
});

// Staff photo uploads: background sync replays the IndexedDB queue after the network returns,
// even with the tab closed. Rejecting tells the browser to try again later. The queue is read with
// plain IndexedDB here (the page's Dexie stays out of the worker every parent downloads).
async function flushFromWorker(): Promise<FlushResult> {
  const db = await openUploadQueue();
  if (!db) return 'idle';
  try {
    return await flushQueue(idbQueueStore(db), { transport: createFetchTransport() });
  } finally {
    db.close();
  }
}

self.addEventListener('sync', ((event: ExtendableEvent & { tag?: string }) => {
  if (event.tag !== UPLOAD_SYNC_TAG) return;
  event.waitUntil(
    flushFromWorker().then((result) => {
      if (result === 'offline' || result === 'retry-later') throw new Error(`Photo uploads paused: ${result}`);
    }),
  );
}) as EventListener);
