import type { AlbumResponse } from '../../contract/albums';
import type { AlbumSummary } from '../../contract/schools';
import { compareNames } from '../../contract/format';
import type { AlbumRecord } from './albums.repository';

/** Class names in natural order ('Grade 2' before 'Grade 10'), case aside; equal names by id. */
export function byNameThenId<T extends { name: string; id: number }>(a: T, b: T): number {
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
  return [...albums].sort(byNameThenId).map(presentAlbum);
}
