import type { AlbumResponse } from '../../contract/albums';
import type { AlbumSummary } from '../../contract/schools';
import type { AlbumRecord } from './albums.repository';

/** Spec section 2: class names sort numeric-aware and case-insensitive ('Grade 2' before 'Grade 10'). */
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** The same order for any names shown beside class names (packing lists sort by class, then student). */
export const compareNames = (a: string, b: string): number => collator.compare(a, b);

export function byName<T extends { name: string; id: number }>(a: T, b: T): number {
  return compareNames(a.name, b.name) || a.id - b.id;
}

export function presentAlbum(album: AlbumRecord): AlbumSummary & AlbumResponse {
  return {
    id: album.id,
    name: album.name,
    schoolId: album.schoolId,
    hasPassword: album.hasPassword,
    photoCount: album.photoCount,
  };
}

export function presentAlbums(albums: AlbumRecord[]): AlbumSummary[] {
  return [...albums].sort(byName).map(presentAlbum);
}
