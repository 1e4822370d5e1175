/**
 * When a refreshed photo list no longer has a photo (marked "do not publish", erased, deleted or
 * given to another child), its cached thumbnail and preview are dropped from the device, so the
 * offline cache never keeps showing what the server has withdrawn.
 */
import { useEffect, useRef } from 'react';
import type { GalleryPhoto as Photo } from '@contract/photos';
import { purgeCachedImages } from '../../lib/image-cache';

export function useDropVanishedImages(albumId: number, photos: readonly Photo[] | undefined): void {
  // Only a list of the same class is compared: switching classes is not a withdrawal.
  const previous = useRef<{ albumId: number; photos: readonly Photo[] } | null>(null);
  useEffect(() => {
    if (!photos) return;
    const before = previous.current?.albumId === albumId ? previous.current.photos : null;
    previous.current = { albumId, photos };
    if (!before) return;
    const now = new Set(photos.map((photo) => photo.id));
    const vanished = before.filter((photo) => !now.has(photo.id)).map((photo) => photo.id);
    if (vanished.length > 0) void purgeCachedImages(vanished).catch((err: unknown) => console.warn('Could not drop cached images', err));
  }, [albumId, photos]);
}
