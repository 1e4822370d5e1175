import { z } from 'zod';
import { MSG, THUMBNAIL_MSG } from './messages';
import { id } from './fields';
import { matchingSummarySchema, trayCardSchema } from './matching';
import { confirmSoldField } from './withdrawn-photos';

export const photoSchema = z.object({
  id: z.number(),
  filename: z.string(),
  originalName: z.string(),
  fileSize: z.number(),
  albumId: z.number(),
  studentName: z.string().nullable(),
  /** The camera's frame number as stored ("0423" of IMG_0423.JPG), null when the name has none: a family sees "Photo 423". */
  originalNumber: z.string().nullable(),
  /**
   * The child this photo is of; null for a group photo of the class. Staff see every assignment; a
   * family sees it only for the children whose codes it holds.
   */
  studentId: z.number().nullable(),
  /** Size of the stored thumbnail, so a grid can reserve its space before it loads. */
  thumbnailWidth: z.number(),
  thumbnailHeight: z.number(),
  createdAt: z.string(),
  /** Staff only, and only when true: a photo of a child's QR card, never shown to families or sold. */
  card: z.literal(true).optional(),
  /** Staff only, and only when true: waiting in the unmatched tray, hidden from families until assigned. */
  inTray: z.literal(true).optional(),
  /** Staff only, and only when true: placed by a card or a file name and waiting for staff before families see it. */
  pendingReview: z.literal(true).optional(),
});
export type Photo = z.infer<typeof photoSchema>;

/**
 * A photo as a family receives it (docs/access.md, "Families see only their own"): never the
 * camera's file name nor the legacy student name, and none of the staff-only flags. The gallery
 * names it with `familyPhotoLabel` from its `originalNumber`.
 */
export const familyPhotoSchema = photoSchema.omit({ originalName: true, studentName: true, card: true, inTray: true, pendingReview: true }).strict();
export type FamilyPhoto = z.infer<typeof familyPhotoSchema>;

/** A photo in the gallery: a family's answer, or staff's with the camera's name and the rest. */
export type GalleryPhoto = FamilyPhoto & Partial<Omit<Photo, keyof FamilyPhoto>>;

/** `GET /api/images/{id}/thumbnail?size=small`: the small rendition. */
export const THUMBNAIL_SIZES = ['small'] as const;
export const thumbnailQuerySchema = z.object({
  size: z.enum(THUMBNAIL_SIZES, { error: THUMBNAIL_MSG.badSize }).optional(),
});

export const uploadBatchResponseSchema = z.object({
  message: z.string(),
  uploaded: z.number(),
  photos: z.array(photoSchema),
  /** The upload session's matching so far; null when the class has no roster to match against. */
  matching: matchingSummarySchema.nullable(),
  /**
   * Files of this batch that were refused, each with the reason (not an image, corrupt, over
   * 10 MB...). The others were stored: the answer is 201 when none was refused, 207 when some
   * were, and a 400 naming them all when every file was refused.
   */
  rejected: z.array(z.object({ name: z.string(), reason: z.string() })),
});
export type UploadBatchResponse = z.infer<typeof uploadBatchResponseSchema>;

export const bulkDeleteSchema = z.object({
  photoIds: z.array(id('Photo ids must be positive whole numbers'), { error: MSG.photoIdsRequired }).min(1, MSG.photoIdsRequired).max(5000),
});

export const missingPhotoSchema = z.object({
  id: z.number(),
  filename: z.string(),
  originalName: z.string(),
  albumId: z.number(),
  albumName: z.string(),
  schoolId: z.number(),
  schoolName: z.string(),
  createdAt: z.string(),
});
export type MissingPhoto = z.infer<typeof missingPhotoSchema>;

export const missingPhotosReportSchema = z.object({
  missingPhotos: z.array(missingPhotoSchema),
  totalInDatabase: z.number(),
});
export type MissingPhotosReport = z.infer<typeof missingPhotosReportSchema>;

/** `PUT /api/photos/tray`: staff put photos back in the unmatched tray (hidden from families until placed again). */
export const trayPhotosSchema = z.object({
  photoIds: z.array(id('Photo ids must be positive whole numbers'), { error: MSG.photoIdsRequired }).min(1, MSG.photoIdsRequired).max(5000),
  /** Staff read the 409 `PHOTO_SOLD` warning and go on (docs/access.md, "Moving a sold photo"). */
  confirm: confirmSoldField,
});

/** Most photos the service worker asks about at once: its image cache holds at most this many. */
export const STILL_VISIBLE_MAX = 300;

/**
 * `POST /api/images/still-visible`: which of these photos the browser may still see. The service
 * worker asks at an online visit about the images it keeps, and drops the others (an erased,
 * withdrawn or moved photo; docs/access.md, "Images kept on the device").
 */
export const stillVisibleSchema = z.object({
  photoIds: z.array(id('Photo ids must be positive whole numbers'), { error: MSG.photoIdsRequired }).min(1, MSG.photoIdsRequired).max(STILL_VISIBLE_MAX),
});
export const stillVisibleResponseSchema = z.object({ photoIds: z.array(z.number()) });
export type StillVisibleResponse = z.infer<typeof stillVisibleResponseSchema>;

export const cleanupMissingSchema = z.object({
  deleteFromDatabase: z.literal(true, { error: 'Set deleteFromDatabase to true to remove missing photos' }),
});

export const restoreResultSchema = z.object({
  filename: z.string(),
  success: z.boolean(),
  message: z.string(),
});
export const restoreResponseSchema = z.object({ results: z.array(restoreResultSchema) });
export type RestoreResponse = z.infer<typeof restoreResponseSchema>;

export const trayItemSchema = z.object({
  photo: photoSchema,
  /** Set on card photos; null on the photos waiting for a child. */
  card: trayCardSchema.nullable(),
});
export type TrayItem = z.infer<typeof trayItemSchema>;

/**
 * `GET /api/albums/{id}/tray`: per upload session, in capture order, the photos waiting for a
 * child with the card photos just before and after them.
 */
export const trayResponseSchema = z.object({
  waiting: z.number(),
  sessions: z.array(z.object({ sessionId: z.string(), items: z.array(trayItemSchema) })),
});
export type TrayResponse = z.infer<typeof trayResponseSchema>;
