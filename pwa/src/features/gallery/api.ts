/** Classes, photos and products of an unlocked school (D3: the access cookie travels with each call). */
import { queryOptions } from '@tanstack/react-query';
import type { AlbumSummary } from '@contract/schools';
import type { Photo } from '@contract/photos';
import type { PriceList } from '@contract/price-lists';
import { apiRequest } from '../../lib/api-client';

export const galleryKeys = {
  albums: (schoolId: number) => ['schools', schoolId, 'albums'] as const,
  photos: (albumId: number) => ['albums', albumId, 'photos'] as const,
  priceLists: (schoolId: number) => ['schools', schoolId, 'price-lists'] as const,
};

export const albumsQuery = (schoolId: number) =>
  queryOptions({
    queryKey: galleryKeys.albums(schoolId),
    queryFn: ({ signal }) => apiRequest<AlbumSummary[]>(`/api/schools/${schoolId}/albums`, { signal }),
    meta: { persist: true },
  });

export const photosQuery = (albumId: number) =>
  queryOptions({
    queryKey: galleryKeys.photos(albumId),
    queryFn: ({ signal }) => apiRequest<Photo[]>(`/api/albums/${albumId}/photos`, { signal }),
    meta: { persist: true },
  });

export const priceListsQuery = (schoolId: number) =>
  queryOptions({
    queryKey: galleryKeys.priceLists(schoolId),
    queryFn: ({ signal }) => apiRequest<PriceList[]>(`/api/schools/${schoolId}/price-lists`, { signal }),
    meta: { persist: true },
  });

export const verifyClassPassword = (albumId: number, password: string) =>
  apiRequest<{ success: boolean; message?: string }>(`/api/albums/${albumId}/verify-password`, { method: 'POST', body: { password } });

export const thumbnailUrl = (photoId: number) => `/api/images/${photoId}/thumbnail`;
export const previewUrl = (photoId: number) => `/api/images/${photoId}/watermarked`;
