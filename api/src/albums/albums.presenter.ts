import type { AlbumResponse } from '../../contract/albums';
import type { AlbumSummary } from '../../contract/schools';
import { compareNames } from '../../contract/format';
import type { AlbumRecord } from './albums.repository';

/** Class names in natural order ('Grade 2' before 'Grade 10'), case aside; equal names by id. */
export function byNameThenId<T extends { name: string; id: number }>(a: T, b: T): number {
  return compareNames(a.name, b.name) || a.id - b.id;
}

/** A class as staff see it: every photo counted, with its status, schedule and photos waiting for review. */
export function presentAlbum(album: AlbumRecord): AlbumResponse {
  return {
    id: album.id,
    name: album.name,
    schoolId: album.schoolId,
    hasPassword: album.hasPassword,
    photoCount: album.photoCount,
    status: album.status,
    publishAt: album.publishAt === null ? null : new Date(album.publishAt).toISOString(),
    pendingReview: album.pendingReview,
    archived: album.archived,
  };
}

/**
 * A class as a family sees it: only the photos released to families are counted (no cards, tray,
 * photos waiting for review or do-not-publish children's), and nothing of its publishing.
 */
function presentFamilyAlbum(album: AlbumRecord): AlbumSummary {
  return { id: album.id, name: album.name, schoolId: album.schoolId, hasPassword: album.hasPassword, photoCount: album.releasedCount };
}

export function presentAlbums(albums: AlbumRecord[], staff: boolean): AlbumSummary[] {
  return [...albums].sort(byNameThenId).map(staff ? presentAlbum : presentFamilyAlbum);
}
