import type { AlbumResponse } from '../../contract/albums';
import type { AlbumSummary } from '../../contract/schools';
import type { AlbumRecord } from './albums.repository';

/** Spec section 2: class names sort numeric-aware and case-insensitive ('Grade 2' before 'Grade 10'). */
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export function byName<T extends { name: string; id: number }>(a: T, b: T): number {
  return collator.compare(a.name, b.name) || a.id - b.id;
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
