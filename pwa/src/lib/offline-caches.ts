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
