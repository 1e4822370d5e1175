import { z } from 'zod';
import { ALBUM_STATUSES } from './constants';
import { MSG } from './messages';
import { ACCESS_MODES, DEFAULT_ACCESS_MODE } from './student-codes';
import { givenPassword, newPassword, optionalDate, optionalId, optionalText, email, requiredText } from './fields';

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const schoolCreateSchema = z.object({
  name: requiredText(MSG.schoolNameRequired, 150),
  slug: z
    .string({ error: MSG.schoolSlugRequired })
    .trim()
    .toLowerCase()
    .min(1, MSG.schoolSlugRequired)
    .max(80, 'School slug is too long')
    .regex(SLUG_PATTERN, MSG.schoolSlugFormat),
  password: newPassword,
  contactEmail: email,
  contactPhone: optionalText(40),
  address: optionalText(300),
  closingDate: optionalDate,
  priceListId: optionalId,
  accessMode: z
    .enum(ACCESS_MODES, { error: 'Access mode must be school_password or student_codes' })
    .optional()
    .transform((mode) => mode ?? DEFAULT_ACCESS_MODE),
});
export type SchoolCreateInput = z.infer<typeof schoolCreateSchema>;

/** PATCH /api/schools/{id}: every field optional; a blank password keeps the current one. */
export const schoolUpdateSchema = schoolCreateSchema
  .omit({ password: true, accessMode: true })
  .partial()
  .extend({
    accessMode: z.enum(ACCESS_MODES, { error: 'Access mode must be school_password or student_codes' }).optional(),
    password: z
      .union([z.string(), z.null()])
      .optional()
      .transform((value) => (value === null || value === undefined || value === '' ? undefined : value))
      .pipe(newPassword.optional()),
  });
export type SchoolUpdateInput = z.infer<typeof schoolUpdateSchema>;

export const schoolVerifySchema = z.object({ password: givenPassword() });

export const albumSummarySchema = z.object({
  id: z.number(),
  name: z.string(),
  schoolId: z.number(),
  hasPassword: z.boolean(),
  /** Staff: every photo of the class. Families: the photos this viewer may see (a published class). */
  photoCount: z.number(),
  /** Staff only: whether families may see the class (docs/access.md, "Draft and published classes"). */
  status: z.enum(ALBUM_STATUSES).optional(),
  /** Staff only: when a draft class publishes itself (ISO 8601), or null. */
  publishAt: z.string().nullable().optional(),
  /** Staff only: photos placed by a card or a file name that wait for staff before families see them. */
  pendingReview: z.number().optional(),
});
export type AlbumSummary = z.infer<typeof albumSummarySchema>;

/** GET /api/schools for visitors. */
export const publicSchoolSchema = z.object({ id: z.number(), name: z.string(), slug: z.string() });
export type PublicSchool = z.infer<typeof publicSchoolSchema>;

/** GET /api/schools/{slug}: what the gallery needs before the password is known. */
export const schoolBySlugSchema = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  closingDate: z.string().nullable(),
  priceListId: z.number().nullable(),
  /** The school office's address, for the parents' "Contact your school" link (no other contact detail leaves). */
  contactEmail: z.string(),
  /** Which form the gallery shows: the school password, or a child's code. */
  accessMode: z.enum(ACCESS_MODES),
  /** Whether this browser's access cookie already unlocks the school (docs/access.md, "The gallery cookie"). */
  unlocked: z.boolean(),
});
export type SchoolBySlug = z.infer<typeof schoolBySlugSchema>;

/** Staff view: the school list with albums and price list name, and GET /api/schools/by-id/{id}. */
export const staffSchoolSchema = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  contactEmail: z.string(),
  contactPhone: z.string().nullable(),
  address: z.string().nullable(),
  closingDate: z.string().nullable(),
  priceListId: z.number().nullable(),
  priceListName: z.string().nullable(),
  accessMode: z.enum(ACCESS_MODES),
  albums: z.array(albumSummarySchema),
  createdAt: z.string(),
});
export type StaffSchool = z.infer<typeof staffSchoolSchema>;

export const schoolVerifyResponseSchema = z.object({
  success: z.literal(true),
  school: publicSchoolSchema,
});
