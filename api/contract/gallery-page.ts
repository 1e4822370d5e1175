/**
 * The school gallery page as the server can start it: the answers its first screen needs, put into
 * the page it serves to a viewer whose access it has checked, and the grid's first thumbnails,
 * asked for by the page's head before any script runs. The grid (PWA) and the server share these
 * numbers so the thumbnails the head asks for are the ones the grid then shows. Types only from
 * the schemas: this module adds nothing to the PWA's first download.
 */
import { SMALL_THUMBNAIL_MAX_SIDE, THUMBNAIL_MAX_SIDE } from './constants';
import type { GalleryPhoto } from './photos';
import type { PriceList } from './price-lists';
import type { AlbumSummary, SchoolBySlug } from './schools';

/** The element of the page that carries the answers (a JSON data block, never executed). */
export const GALLERY_PAGE_DATA_ID = 'gallery-page-data';

/** What the server put into a gallery page, each as the API answers it to the same viewer. */
export interface GalleryPageData {
  /** GET /api/schools/{slug} */
  school: SchoolBySlug;
  /** GET /api/schools/{id}/albums */
  albums: AlbumSummary[];
  /** GET /api/schools/{id}/price-lists */
  priceLists: PriceList[];
  /** GET /api/albums/{id}/photos, for the class named in the address (?class=id), when it may be shown. */
  photos: { albumId: number; list: GalleryPhoto[] } | null;
}

export const thumbnailPath = (photoId: number) => `/api/images/${photoId}/thumbnail`;
export const smallThumbnailPath = (photoId: number) => `/api/images/${photoId}/thumbnail?size=small`;

/** The grid's cell width: two columns on a phone, three from 640 px, four from 1024 px (72rem at most). */
export const GRID_SIZES = '(min-width: 1024px) 270px, 31vw';
/** Screens this narrow always get the small thumbnail (enough for a phone's two columns). */
export const GRID_SMALL_MEDIA = '(max-width: 639px)';
export const GRID_WIDE_MEDIA = '(min-width: 640px)';
/** The photos on screen at once on a phone (two rows of two): asked for at once, not lazily. */
export const GRID_ABOVE_THE_FOLD = 4;
/** The first row: asked for before anything else on the page. */
export const GRID_FIRST_ROW = 2;

/** The `srcset` of a grid thumbnail on a wide screen: the small and the full rendition by width. */
export const gridSrcSet = (photoId: number) => `${smallThumbnailPath(photoId)} ${SMALL_THUMBNAIL_MAX_SIDE}w, ${thumbnailPath(photoId)} ${THUMBNAIL_MAX_SIDE}w`;
