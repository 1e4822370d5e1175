import { useEffect, useRef, useState } from 'react';
import { businessName } from '../../../lib/brand';
import { makePreview } from './preview';

export interface Selected {
  id: string;
  file: File;
}

export interface Previews {
  urls: ReadonlyMap<string, string>;
  blobs: ReadonlyMap<string, Blob>;
}

/**
 * Watermarked previews for the selection, made one at a time so 500 large photos never decode at
 * once on a tablet. Answers object URLs by selection id, and the blobs (kept with the queue).
 */
export function usePreviews(selection: readonly Selected[]): Previews {
  const [previews, setPreviews] = useState<Previews>({ urls: new Map(), blobs: new Map() });
  const started = useRef(new Set<string>());
  const finished = useRef(new Set<string>());

  useEffect(() => {
    if (typeof createImageBitmap === 'undefined') return;
    // The sets live as long as the component: the cleanup below sees the same ones.
    const startedIds = started.current;
    const finishedIds = finished.current;
    let cancelled = false;
    const todo = selection.filter((item) => !startedIds.has(item.id));
    (async () => {
      for (const item of todo) {
        if (cancelled) return;
        startedIds.add(item.id);
        try {
          const blob = await makePreview(item.file, businessName());
          finishedIds.add(item.id);
          const url = URL.createObjectURL(blob);
          setPreviews((current) => ({ urls: new Map(current.urls).set(item.id, url), blobs: new Map(current.blobs).set(item.id, blob) }));
        } catch {
          // An undecodable file keeps its name tile; the server names the problem on upload.
        }
      }
    })();
    return () => {
      cancelled = true;
      // Items not reached yet are tried again by the next run.
      for (const item of todo) if (!finishedIds.has(item.id)) startedIds.delete(item.id);
    };
  }, [selection]);

  // Previews of files taken out of the selection are released.
  useEffect(() => {
    const ids = new Set(selection.map((item) => item.id));
    const stale = [...previews.urls.keys()].filter((id) => !ids.has(id));
    if (stale.length === 0) return;
    for (const id of stale) {
      const url = previews.urls.get(id);
      if (url) URL.revokeObjectURL(url);
      started.current.delete(id);
      finished.current.delete(id);
    }
    setPreviews((current) => {
      const urls = new Map(current.urls);
      const blobs = new Map(current.blobs);
      for (const id of stale) {
        urls.delete(id);
        blobs.delete(id);
      }
      return { urls, blobs };
    });
  }, [selection, previews]);

  return previews;
}
