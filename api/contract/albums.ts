import { z } from 'zod';
import { ALBUM_STATUSES, PASSWORD_MAX_LENGTH } from './constants';
import { KEEP_PAID_MSG, MSG, REVIEW_MSG } from './messages';
import { givenPassword, id, requiredText } from './fields';
import { confirmSoldField } from './withdrawn-photos';

/** Class passwords have no length rule; blank means "no password" (docs/access.md, "Class passwords"). */
const classPassword = z
  .union([z.string(), z.null()])
  .optional()
  .transform((value) => (value ?? '').trim())
  .pipe(z.string().max(PASSWORD_MAX_LENGTH, MSG.passwordTooLong))
  .transform((value) => (value === '' ? null : value));

export const albumCreateSchema = z.object({
  name: requiredText(MSG.classNameRequired, 120),
  schoolId: id(MSG.selectSchoolFirst),
  password: classPassword,
});
export type AlbumCreateInput = z.infer<typeof albumCreateSchema>;

/** An ISO 8601 date-time with a zone (`2026-12-01T08:00:00+02:00` or `...Z`), or null to clear it. */
const publishAt = z.union([z.iso.datetime({ offset: true, error: REVIEW_MSG.publishAtInvalid }), z.null()], { error: REVIEW_MSG.publishAtInvalid });

/**
 * PATCH: name and/or password; a blank or null password removes protection. `status` hides a
 * class from families (draft) or shows it (published: photos waiting for review stay hidden until
 * `POST /api/albums/{id}/publish`); `publishAt` makes a draft publish itself at that time.
 */
export const albumUpdateSchema = z.object({
  status: z.enum(ALBUM_STATUSES, { error: REVIEW_MSG.statusInvalid }).optional(),
  publishAt: publishAt.optional(),
  /** Hidden from families, kept for orders (docs/access.md, "Archived classes"). */
  archived: z.boolean({ error: KEEP_PAID_MSG.archivedInvalid }).optional(),
  /** Staff read the 409 `PHOTO_SOLD` warning before putting a published class back to draft, and go on (docs/access.md, "Moving a sold photo"). */
  confirm: confirmSoldField,
  name: requiredText(MSG.classNameRequired, 120).optional(),
  password: z
    .union([z.string(), z.null()])
    .optional()
    .transform((value) => (value === undefined ? undefined : (value ?? '').trim()))
    .pipe(z.string().max(PASSWORD_MAX_LENGTH, MSG.passwordTooLong).optional())
    .transform((value) => (value === undefined ? undefined : value === '' ? null : value)),
});
export type AlbumUpdateInput = z.infer<typeof albumUpdateSchema>;

export const albumVerifySchema = z.object({ password: givenPassword() });

export const albumVerifyResponseSchema = z.object({ success: z.boolean(), message: z.string().optional() });

/** A class as staff see it (create, update, publish). */
export const albumResponseSchema = z.object({
  id: z.number(),
  name: z.string(),
  schoolId: z.number(),
  hasPassword: z.boolean(),
  photoCount: z.number(),
  status: z.enum(ALBUM_STATUSES),
  /** ISO 8601, or null: when a draft publishes itself. */
  publishAt: z.string().nullable(),
  /** Photos placed by a card or a file name that families see only once staff release them. */
  pendingReview: z.number(),
  /** Hidden from families, kept for the orders that need its photos (docs/access.md, "Archived classes"). */
  archived: z.boolean(),
});
export type AlbumResponse = z.infer<typeof albumResponseSchema>;

/** `POST /api/albums/{id}/publish`: the class is published and every photo waiting for review released. */
export const publishResponseSchema = z.object({
  album: albumResponseSchema,
  /** Photos that were waiting for review and are now shown to their families. */
  released: z.number(),
  /** Photos families of the class can now see (cards, the tray and do-not-publish children's photos excluded). */
  visible: z.number(),
  message: z.string(),
});
export type PublishResponse = z.infer<typeof publishResponseSchema>;

/** A photo on the review sheet, in capture order. */
export const reviewPhotoSchema = z.object({
  id: z.number(),
  /** "Photo 12": the photo's number in the class (capture order), never a camera file name on a family's screen. */
  label: z.string(),
  originalName: z.string(),
  thumbnailWidth: z.number(),
  thumbnailHeight: z.number(),
  matchedBy: z.enum(['card', 'name', 'staff']).nullable(),
  /** Placed by a card or a file name since the class went live (or was scheduled): families do not see it until released. */
  pendingReview: z.boolean(),
  /** The card photo whose code placed this photo (matched by card), else null. */
  placedByCard: z.object({ photoId: z.number(), originalName: z.string() }).nullable(),
});
export type ReviewPhoto = z.infer<typeof reviewPhotoSchema>;

/** `GET /api/albums/{id}/review` (staff): per child, what families will see once the class is published. */
export const reviewSheetSchema = z.object({
  album: albumResponseSchema.extend({ hasRoster: z.boolean() }),
  students: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      number: z.string().nullable(),
      doNotPublish: z.boolean(),
      /** The photo marked as the child's default pose (`PATCH /api/students/{id}` `defaultPhotoId`), or null (docs/prepaid.md). */
      defaultPhotoId: z.number().nullable(),
      photos: z.array(reviewPhotoSchema),
      /** The card photos that placed this child's runs, in capture order. */
      cards: z.array(z.object({ photoId: z.number(), originalName: z.string() })),
      /** "Neo Kgosi: 6 photos, placed by card IMG_0412". */
      summary: z.string(),
    }),
  ),
  /** Group photos of the class (no child): every family of the class sees them. */
  group: z.array(reviewPhotoSchema),
  /** Photos no rule could place: families never see them until staff place them. */
  tray: z.array(reviewPhotoSchema),
  counts: z.object({
    photos: z.number(),
    cards: z.number(),
    tray: z.number(),
    pendingReview: z.number(),
    /** Photos families see now. */
    visibleNow: z.number(),
    /** Photos families will see after "Publish class" / "Release N new photos". */
    visibleAfterPublish: z.number(),
  }),
});
export type ReviewSheet = z.infer<typeof reviewSheetSchema>;
