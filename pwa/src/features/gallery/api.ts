/** Classes, photos and products of an unlocked school (D3: the access cookie travels with each call). */
import { queryOptions } from '@tanstack/react-query';
import type { AlbumSummary } from '@contract/schools';
import type { Photo } from '@contract/photos';
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

export const verifyClassPassword = (albumId: number, password: string) =>
  apiRequest<{ success: boolean; message?: string }>(`/api/albums/${albumId}/verify-password`, { method: 'POST', body: { password } });

export const thumbnailUrl = (photoId: number) => `/api/images/${photoId}/thumbnail`;
export const smallThumbnailUrl = (photoId: number) => `/api/images/${photoId}/thumbnail?size=small`;
export const previewUrl = (photoId: number) => `/api/images/${photoId}/watermarked`;
