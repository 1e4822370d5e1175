/** What the rendition cache may hold at most (docs/images.md, "Serving images"). */
export const RENDITION_CACHE_MAX_BYTES = 32 * 1024 * 1024;
/** A file larger than this is never kept (a preview is about 20 KB). */
export const RENDITION_CACHE_MAX_ENTRY_BYTES = 1024 * 1024;
/** How long a rendition stays in it after it was read from storage. */
export const RENDITION_CACHE_TTL_MS = 10 * 60 * 1000;

export interface RenditionCache {
  /** The bytes read for this object under this ETag, if still kept. */
  get(key: string, etag: string): Buffer | undefined;
  keep(key: string, etag: string, data: Buffer): void;
  /** Forgets these objects (removed or replaced by this process). */
  drop(keys: readonly string[]): void;
}

/**
 * The renditions read most recently, in memory (docs/images.md, "Serving images"): a gallery asks
 * for the same forty thumbnails for every family of the class, and each answer from memory saves
 * four file operations (or a GET on a bucket). It only spares the storage read: the access check
 * has run before anything is asked of it, so a photo deleted or no longer visible is never
 * answered from here. An entry is the object's bytes under its ETag, which changes whenever the
 * file does (a restored photo gets new ETags), so a kept answer is never stale; entries leave the
 * least recently used first beyond `maxBytes`, RENDITION_CACHE_TTL_MS after they were read, and at
 * once when this process removes or replaces the object.
 */
export function createRenditionCache(
  options: { maxBytes?: number; maxEntryBytes?: number; ttlMs?: number; now?: () => number } = {},
): RenditionCache {
  const { maxBytes = RENDITION_CACHE_MAX_BYTES, maxEntryBytes = RENDITION_CACHE_MAX_ENTRY_BYTES, ttlMs = RENDITION_CACHE_TTL_MS, now = Date.now } = options;
  const entries = new Map<string, { etag: string; data: Buffer; until: number }>();
  let bytes = 0;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.data.length;
  };
  return {
    get(key, etag) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.etag !== etag || now() >= entry.until) {
        remove(key);
        return undefined;
      }
      // Most recently used last.
      entries.delete(key);
      entries.set(key, entry);
      return entry.data;
    },
    keep(key, etag, data) {
      if (data.length > maxEntryBytes) return;
      remove(key);
      entries.set(key, { etag, data, until: now() + ttlMs });
      bytes += data.length;
      for (const oldest of entries.keys()) {
        if (bytes <= maxBytes) break;
        remove(oldest);
      }
    },
    drop(keys) {
      for (const key of keys) remove(key);
    },
  };
}
