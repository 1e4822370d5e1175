import type { Photo } from '../../contract/photos';
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
    studentId,
    thumbnailWidth: photo.thumbWidth,
    thumbnailHeight: photo.thumbHeight,
    createdAt: photo.createdAt,
    ...(photo.kind === 'card' ? { card: true as const } : {}),
    ...(photo.inTray ? { inTray: true as const } : {}),
    ...(photo.pendingReview ? { pendingReview: true as const } : {}),
  };
}
