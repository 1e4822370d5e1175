/**
 * The service worker's caches of gallery data (photo lists, classes, school, products) and
 * gallery images. Shared with the page, which empties them on logout: Cache Storage is reachable
 * from both, so no message round trip is needed. Worker-safe: no window or document here.
 */
export const GALLERY_DATA_CACHE = 'gallery-data-v1';
export const GALLERY_IMAGE_CACHE = 'gallery-images-v1';

/** The answers a gallery needs to open again offline; personal data (orders) is never among them. */
export const GALLERY_DATA_PATH = /^\/api\/(schools|schools\/[\w-]+|schools\/\d+\/(albums|price-lists)|albums\/\d+\/photos)$/;
export const GALLERY_IMAGE_PATH = /^\/api\/images\/\d+\/(thumbnail|watermarked)$/;

/** The check of kept images (docs/access.md, "Images kept on the device"); the API's limit per request. */
export const STILL_VISIBLE_PATH = '/api/images/still-visible';
const STILL_VISIBLE_MAX = 300;
const IMAGE_ID = /^\/api\/images\/(\d+)\//;

/**
 * Drops the kept images of photos this browser may no longer see (erased at a family's request,
 * withdrawn, moved to another child, or a grant that lapsed): asks the API which of the kept photos
 * are still visible and deletes every size of the others. Offline or refused, nothing is dropped.
 * Returns how many cached images went.
 */
export async function pruneGalleryImages(fetcher: typeof fetch = fetch): Promise<number> {
  if (typeof caches === 'undefined') return 0;
  const cache = await caches.open(GALLERY_IMAGE_CACHE);
  const byPhoto = new Map<number, Request[]>();
  for (const request of await cache.keys()) {
    const match = IMAGE_ID.exec(new URL(request.url).pathname);
    if (match) byPhoto.set(Number(match[1]), [...(byPhoto.get(Number(match[1])) ?? []), request]);
  }
  const ids = [...byPhoto.keys()];
  let dropped = 0;
  for (let start = 0; start < ids.length; start += STILL_VISIBLE_MAX) {
    const asked = ids.slice(start, start + STILL_VISIBLE_MAX);
    let visible: Set<number>;
    try {
      const response = await fetcher(STILL_VISIBLE_PATH, {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ photoIds: asked }),
      });
      if (!response.ok) return dropped;
      visible = new Set(((await response.json()) as { photoIds: number[] }).photoIds);
    } catch {
      return dropped;
    }
    for (const id of asked) {
      if (visible.has(id)) continue;
      for (const request of byPhoto.get(id) ?? []) if (await cache.delete(request, { ignoreVary: true })) dropped += 1;
    }
  }
  return dropped;
}

/** The page's message to the worker that it emptied the gallery caches. */
export const GALLERY_PURGED = 'GALLERY_PURGED';

/**
 * Empties the gallery caches. From the page (a logout), the worker in control is told too: it
 * empties them again and keeps no answer to a request made before, so a gallery answer still on
 * its way is not cached after the logout.
 */
export async function purgeGalleryCaches(): Promise<void> {
  if (typeof caches === 'undefined') return;
  if (typeof navigator !== 'undefined' && navigator.serviceWorker?.controller) navigator.serviceWorker.controller.postMessage({ type: GALLERY_PURGED });
  await Promise.all([caches.delete(GALLERY_DATA_CACHE), caches.delete(GALLERY_IMAGE_CACHE)]);
}

/**
 * Writes answers the page already has into the gallery data cache, as if they had passed through
 * the service worker (which serves them from there when the network is gone). Only gallery
 * addresses are kept.
 */
export async function keepGalleryAnswers(answers: readonly { url: string; body: unknown }[]): Promise<void> {
  const kept = answers.filter(({ url }) => GALLERY_DATA_PATH.test(new URL(url, self.location.origin).pathname));
  if (typeof caches === 'undefined' || kept.length === 0) return;
  const cache = await caches.open(GALLERY_DATA_CACHE);
  await Promise.all(
    kept.map(({ url, body }) => cache.put(new URL(url, self.location.origin).href, new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } }))),
  );
}

/**
 * Asks the service worker (now in control) for gallery images the page showed before it was, from
 * the browser's HTTP cache whatever its age, so nothing is downloaded again: the worker keeps them
 * in its image cache.
 */
export async function keepShownImages(urls: readonly string[]): Promise<void> {
  const kept = [...new Set(urls)].filter((url) => GALLERY_IMAGE_PATH.test(new URL(url, self.location.origin).pathname));
  await Promise.all(kept.map((url) => fetch(url, { cache: 'force-cache', credentials: 'include' }).catch(() => undefined)));
}
