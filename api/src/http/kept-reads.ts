/**
 * Reads kept for a short time, by key (docs/access.md, "The gallery cookie": a photo's state is
 * kept at most one second). A key's value is read again once `maxAgeMs` has passed since its read
 * started; callers within that time share the value, and callers while a read is on its way share
 * that read. `invalidate()` forgets everything at once (a change this process just committed): a
 * read started before it is handed to those already waiting for it but not kept.
 */
export interface KeptReads<K, V> {
  get(key: K): Promise<V>;
  invalidate(): void;
}

export function createKeptReads<K, V>(
  read: (key: K) => Promise<V>,
  options: {
    maxAgeMs: number;
    /** At most this many values are kept; the oldest kept goes first. */
    maxEntries: number;
    /** Whether a value read is kept (e.g. not "not found": nothing to forget when it appears). */
    keep?: (value: V) => boolean;
    now?: () => number;
  },
): KeptReads<K, V> {
  const now = options.now ?? (() => performance.now());
  const keep = options.keep ?? (() => true);
  const kept = new Map<K, { value: V; startedAt: number }>();
  const pending = new Map<K, Promise<V>>();
  let generation = 0;
  return {
    get(key: K): Promise<V> {
      const entry = kept.get(key);
      if (entry) {
        if (now() - entry.startedAt < options.maxAgeMs) return Promise.resolve(entry.value);
        kept.delete(key);
      }
      const onItsWay = pending.get(key);
      if (onItsWay) return onItsWay;
      const startedAt = now();
      const started = generation;
      const reading = read(key).then(
        (value) => {
          if (started === generation) {
            pending.delete(key);
            if (keep(value)) {
              if (kept.size >= options.maxEntries) {
                const oldest = kept.keys().next();
                if (!oldest.done) kept.delete(oldest.value);
              }
              kept.set(key, { value, startedAt });
            }
          }
          return value;
        },
        (err: unknown) => {
          if (started === generation) pending.delete(key);
          throw err;
        },
      );
      pending.set(key, reading);
      return reading;
    },
    invalidate(): void {
      generation++;
      kept.clear();
      pending.clear();
    },
  };
}
