import { describe, expect, it } from 'vitest';
import { createRenditionCache } from './rendition-cache';

const bytes = (n: number, fill = 1) => Buffer.alloc(n, fill);

describe('the rendition cache (docs/images.md, "Serving images")', () => {
  it("answers only under the ETag it was kept with: a restored photo's new ETag reads the file again", () => {
    const cache = createRenditionCache({ maxBytes: 1000, ttlMs: 60_000 });
    cache.keep('thumbnails/ab/key.webp', 'etag-1', bytes(10));
    expect(cache.get('thumbnails/ab/key.webp', 'etag-1')?.length).toBe(10);
    expect(cache.get('thumbnails/ab/key.webp', 'etag-2')).toBeUndefined();
    // The stale entry is gone too.
    expect(cache.get('thumbnails/ab/key.webp', 'etag-1')).toBeUndefined();
  });

  it('drops the least recently used beyond its size, and what is too large for it is never kept', () => {
    const cache = createRenditionCache({ maxBytes: 6400, maxEntryBytes: 4000, ttlMs: 60_000 });
    cache.keep('a', 'e', bytes(3000));
    cache.keep('b', 'e', bytes(3000));
    expect(cache.get('a', 'e')).toBeDefined();
    cache.keep('c', 'e', bytes(3000));
    expect(cache.get('b', 'e')).toBeUndefined();
    expect(cache.get('a', 'e')).toBeDefined();
    expect(cache.get('c', 'e')).toBeDefined();
    cache.keep('huge', 'e', bytes(4001));
    expect(cache.get('huge', 'e')).toBeUndefined();
  });

  it('forgets an entry its time after it was read from storage, however often it is asked for, and at once when dropped', () => {
    let clock = 0;
    const cache = createRenditionCache({ maxBytes: 1000, ttlMs: 10_000, now: () => clock });
    cache.keep('a', 'e', bytes(10));
    cache.keep('b', 'e', bytes(10));
    clock = 9_999;
    expect(cache.get('a', 'e')).toBeDefined();
    clock = 10_000;
    expect(cache.get('a', 'e')).toBeUndefined();
    cache.keep('c', 'e', bytes(10));
    cache.drop(['c']);
    expect(cache.get('c', 'e')).toBeUndefined();
  });
});
