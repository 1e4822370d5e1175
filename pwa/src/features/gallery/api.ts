/** Classes, photos and products of an unlocked school (the access cookie travels with each call). */
import { queryOptions } from '@tanstack/react-query';
import type { AlbumSummary } from '@contract/schools';
import type { GalleryPhoto as Photo } from '@contract/photos';
import type { PriceList } from '@contract/price-lists';
import { apiRequest, type AuthMode } from '../../lib/api-client';

/**
 * A parent's access is the gallery cookie; a customer token adds nothing here, and leaving it off
 * lets the service worker keep these answers for offline use. Staff still send theirs.
 */
const GALLERY_AUTH: AuthMode = 'staff';
/**
 * Asked even when the browser says it is offline: the service worker may answer from its cache.
 * Without a cached answer the call fails at once (no retries) instead of waiting for a network.
 */
const GALLERY_NETWORK_MODE = 'offlineFirst' as const;

export const galleryKeys = {
  albums: (schoolId: number) => ['schools', schoolId, 'albums'] as const,
  photos: (albumId: number) => ['albums', albumId, 'photos'] as const,
  priceLists: (schoolId: number) => ['schools', schoolId, 'price-lists'] as const,
};

export const albumsQuery = (schoolId: number) =>
  queryOptions({
    queryKey: galleryKeys.albums(schoolId),
    queryFn: ({ signal }) => apiRequest<AlbumSummary[]>(`/api/schools/${schoolId}/albums`, { signal, auth: GALLERY_AUTH }),
    meta: { persist: true },
    networkMode: GALLERY_NETWORK_MODE,
  });

export const photosQuery = (albumId: number) =>
  queryOptions({
    queryKey: galleryKeys.photos(albumId),
    queryFn: ({ signal }) => apiRequest<Photo[]>(`/api/albums/${albumId}/photos`, { signal, auth: GALLERY_AUTH }),
    meta: { persist: true },
    networkMode: GALLERY_NETWORK_MODE,
  });

export const priceListsQuery = (schoolId: number) =>
  queryOptions({
    queryKey: galleryKeys.priceLists(schoolId),
    queryFn: ({ signal }) => apiRequest<PriceList[]>(`/api/schools/${schoolId}/price-lists`, { signal, auth: GALLERY_AUTH }),
    meta: { persist: true },
    networkMode: GALLERY_NETWORK_MODE,
  });

/**
 * The address a persisted gallery answer was fetched from, by its query key (school list, school by
 * slug, classes, price lists, photos), or null for any other query.
 */
export function galleryAnswerUrl(key: readonly unknown[]): string | null {
  const [head, id, tail] = key;
  if (head === 'schools' && id === 'public' && key.length === 2) return '/api/schools';
  if (head === 'schools' && id === 'slug' && typeof tail === 'string' && key.length === 3) return `/api/schools/${encodeURIComponent(tail)}`;
  if (head === 'schools' && typeof id === 'number' && (tail === 'albums' || tail === 'price-lists') && key.length === 3) return `/api/schools/${id}/${tail}`;
  if (head === 'albums' && typeof id === 'number' && tail === 'photos' && key.length === 3) return `/api/albums/${id}/photos`;
  return null;
}

export const verifyClassPassword = (albumId: number, password: string) =>
  apiRequest<{ success: boolean; message?: string }>(`/api/albums/${albumId}/verify-password`, { method: 'POST', body: { password } });

export { thumbnailPath as thumbnailUrl, smallThumbnailPath as smallThumbnailUrl } from '@contract/gallery-page';
export const previewUrl = (photoId: number) => `/api/images/${photoId}/watermarked`;
