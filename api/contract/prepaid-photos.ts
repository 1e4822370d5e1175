/**
 * The photos a prepaid package is chosen from (docs/prepaid.md, "Choosing from any device"):
 * `GET /api/orders/{id}/packages/{packageLineId}/photos` answers the line's child's released photos
 * to the order's owner, each with image addresses that owner can load whatever its gallery access.
 */
import { z } from 'zod';
import { familyPhotoSchema } from './photos';

export const prepaidPhotoSchema = familyPhotoSchema.extend({
  /** The watermarked thumbnail, the small one (phones) and the preview, signed for this order line. */
  thumbnailUrl: z.string(),
  smallThumbnailUrl: z.string(),
  previewUrl: z.string(),
});
export type PrepaidPhoto = z.infer<typeof prepaidPhotoSchema>;

export const prepaidPhotosResponseSchema = z.object({
  /** The child's released photos in capture order; empty while none is online. */
  photos: z.array(prepaidPhotoSchema),
});
export type PrepaidPhotosResponse = z.infer<typeof prepaidPhotosResponseSchema>;

/** The renditions of `GET /api/orders/{id}/packages/{line}/photos/{photoId}/{kind}?t=…`. */
export const PREPAID_IMAGE_KINDS = ['thumbnail', 'watermarked'] as const;
export type PrepaidImageKind = (typeof PREPAID_IMAGE_KINDS)[number];
