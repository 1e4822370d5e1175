import { afterEach, describe, expect, it, vi } from 'vitest';
import { GALLERY_DATA_CACHE, GALLERY_IMAGE_CACHE, GALLERY_PURGED, STILL_VISIBLE_PATH, pruneGalleryImages, purgeGalleryCaches } from './offline-caches';

/** A Cache Storage with one cache, enough for the pruning: keys and delete. */
function fakeCaches(urls: string[]) {
  const kept = new Set(urls.map((url) => new URL(url, 'https://photos.example').href));
  const cache = {
    keys: async () => [...kept].map((url) => new Request(url)),
    delete: async (request: Request) => kept.delete(request.url),
  };
  const open = vi.fn(async (name: string) => {
    if (name !== GALLERY_IMAGE_CACHE) throw new Error(`unexpected cache ${name}`);
    return cache;
  });
  vi.stubGlobal('caches', { open });
  return kept;
}

describe('pruneGalleryImages (the service worker at an online visit)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('drops every kept size of the photos the API no longer shows, and keeps the rest', async () => {
    const kept = fakeCaches(['/api/images/1/thumbnail', '/api/images/1/thumbnail?size=small', '/api/images/2/watermarked', '/api/images/3/thumbnail']);
    const fetcher = vi.fn(async () => new Response(JSON.stringify({ photoIds: [2] }), { status: 200, headers: { 'Content-Type': 'application/json' } }));
    expect(await pruneGalleryImages(fetcher as unknown as typeof fetch)).toBe(3);
    expect([...kept].map((url) => new URL(url).pathname)).toEqual(['/api/images/2/watermarked']);
    const [path, init] = fetcher.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe(STILL_VISIBLE_PATH);
    expect(init).toMatchObject({ method: 'POST', credentials: 'include' });
    expect((JSON.parse(String(init.body)) as { photoIds: number[] }).photoIds.sort()).toEqual([1, 2, 3]);
  });

  it('offline or refused, nothing is dropped', async () => {
    const kept = fakeCaches(['/api/images/1/thumbnail']);
    expect(await pruneGalleryImages((async () => Promise.reject(new TypeError('offline'))) as unknown as typeof fetch)).toBe(0);
    expect(await pruneGalleryImages((async () => new Response('{}', { status: 503 })) as unknown as typeof fetch)).toBe(0);
    expect(kept.size).toBe(1);
  });
});

describe('purgeGalleryCaches (a logout in the page)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('empties both caches and tells the worker in control, which keeps no answer still on its way', async () => {
    const deleted: string[] = [];
    vi.stubGlobal('caches', { delete: vi.fn(async (name: string) => deleted.push(name) > 0) });
    const postMessage = vi.fn();
    vi.stubGlobal('navigator', { serviceWorker: { controller: { postMessage } } });
    await purgeGalleryCaches();
    expect(deleted.sort()).toEqual([GALLERY_DATA_CACHE, GALLERY_IMAGE_CACHE].sort());
    expect(postMessage).toHaveBeenCalledWith({ type: GALLERY_PURGED });
  });

  it('without a worker in control, only empties the caches', async () => {
    const deleted: string[] = [];
    vi.stubGlobal('caches', { delete: vi.fn(async (name: string) => deleted.push(name) > 0) });
    vi.stubGlobal('navigator', { serviceWorker: { controller: null } });
    await purgeGalleryCaches();
    expect(deleted).toHaveLength(2);
  });
});
