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

export async function purgeGalleryCaches(): Promise<void> {
  if (typeof caches === 'undefined') return;
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
