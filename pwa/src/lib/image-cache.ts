/**
 * Drops images from every Cache Storage cache the service worker keeps (a forgotten child, a
 * withdrawn photo), so nothing of them stays on the device.
 */
export async function purgeCachedImages(photoIds: readonly number[]): Promise<void> {
  if (typeof caches === 'undefined' || photoIds.length === 0) return;
  const wanted = new Set(photoIds.map(String));
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const match = /^\/api\/images\/(\d+)\//.exec(new URL(request.url).pathname);
      if (match?.[1] && wanted.has(match[1])) await cache.delete(request);
    }
  }
}
