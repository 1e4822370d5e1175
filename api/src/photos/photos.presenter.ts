import type { FamilyPhoto, Photo } from '../../contract/photos';
import type { PhotoRecord } from './photos.repository';

/**
 * An allow-list of output fields: a record is never spread into a response. `studentId` is what
 * this viewer may be told (the visibility rule decides); staff get the photo's own.
 */
export function presentPhoto(photo: PhotoRecord, studentId: number | null = photo.studentId): Photo {
  return {
    id: photo.id,
    filename: photo.filename,
    originalName: photo.originalName,
    fileSize: photo.fileSize,
    albumId: photo.albumId,
    studentName: photo.studentName,
    originalNumber: photo.originalNumber,
    studentId,
    thumbnailWidth: photo.thumbWidth,
    thumbnailHeight: photo.thumbHeight,
    createdAt: photo.createdAt,
    ...(photo.kind === 'card' ? { card: true as const } : {}),
    ...(photo.inTray ? { inTray: true as const } : {}),
    ...(photo.pendingReview ? { pendingReview: true as const } : {}),
  };
}

/**
 * A photo as a family receives it: no camera file name, no legacy student name, no staff flags
 * (docs/access.md, "Families see only their own"); `studentId` as the visibility rule allows.
 */
export function presentFamilyPhoto(photo: PhotoRecord, studentId: number | null): FamilyPhoto {
  return {
    id: photo.id,
    filename: photo.filename,
    originalNumber: photo.originalNumber,
    fileSize: photo.fileSize,
    albumId: photo.albumId,
    studentId,
    thumbnailWidth: photo.thumbWidth,
    thumbnailHeight: photo.thumbHeight,
    createdAt: photo.createdAt,
  };
}
