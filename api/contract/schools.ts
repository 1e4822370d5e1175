import { z } from 'zod';
import { ALBUM_STATUSES } from './constants';
import { MSG, SEASON_MSG } from './messages';
import { ACCESS_MODES, DEFAULT_ACCESS_MODE } from './student-codes';
import { givenPassword, newPassword, optionalDate, optionalId, optionalText, email, requiredText } from './fields';

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A new school password, or none: blank and null mean none (on edit: keep the current one). */
const optionalNewPassword = z
  .union([z.string(), z.null()])
  .optional()
  .transform((value) => (value === null || value === undefined || value === '' ? undefined : value))
  .pipe(newPassword.optional());

/** YYYY-MM-DD, or blank/absent for none. */
const pictureDay = z
  .union([z.string(), z.null()], { error: SEASON_MSG.pictureDayFormat })
  .optional()
  .transform((value) => (value ?? '').trim())
  .pipe(z.union([z.literal('').transform(() => null), z.iso.date({ error: SEASON_MSG.pictureDayFormat })]));

const accessMode = z.enum(ACCESS_MODES, { error: 'Access mode must be school_password or student_codes' });

const schoolFields = z.object({
  name: requiredText(MSG.schoolNameRequired, 150),
  slug: z
    .string({ error: MSG.schoolSlugRequired })
    .trim()
    .toLowerCase()
    .min(1, MSG.schoolSlugRequired)
    .max(80, 'School slug is too long')
    .regex(SLUG_PATTERN, MSG.schoolSlugFormat),
  password: optionalNewPassword,
  contactEmail: email,
  contactPhone: optionalText(40),
  address: optionalText(300),
  closingDate: optionalDate,
  /** The day the photos are taken (docs/outreach.md, "The season timeline"). */
  pictureDay: pictureDay,
  priceListId: optionalId,
  accessMode: accessMode.optional().transform((mode) => mode ?? DEFAULT_ACCESS_MODE),
});

/**
 * POST /api/schools. The password is what opens a `school_password` school, so such a school needs
 * one; a `student_codes` school may have none, since its families use their child's code
 * (docs/access.md, "School password"). Checked even when other fields fail, so the form names
 * every missing field at once.
 */
export const schoolCreateSchema = schoolFields.refine((school) => (school.accessMode ?? DEFAULT_ACCESS_MODE) !== 'school_password' || school.password !== undefined, {
  path: ['password'],
  message: MSG.schoolPasswordRequired,
  when: () => true,
});
export type SchoolCreateInput = z.infer<typeof schoolCreateSchema>;

/**
 * PATCH /api/schools/{id}: every field optional; a blank password keeps the current one. Whether a
 * `school_password` school ends up with a password on record needs the stored one, so the service
 * checks that.
 */
export const schoolUpdateSchema = schoolFields
  .omit({ password: true, accessMode: true })
  .partial()
  .extend({ accessMode: accessMode.optional(), password: optionalNewPassword });
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
  /** Staff only: archived, hidden from families and kept for orders (docs/access.md, "Archived classes"). */
  archived: z.boolean().optional(),
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
  /** The day the photos are taken (YYYY-MM-DD), or null. */
  pictureDay: z.string().nullable(),
  priceListId: z.number().nullable(),
  priceListName: z.string().nullable(),
  accessMode: z.enum(ACCESS_MODES),
  /** Whether a school password is on record (it is never sent): a `student_codes` school may have none. */
  hasPassword: z.boolean(),
  albums: z.array(albumSummarySchema),
  createdAt: z.string(),
});
export type StaffSchool = z.infer<typeof staffSchoolSchema>;

export const schoolVerifyResponseSchema = z.object({
  success: z.literal(true),
  school: publicSchoolSchema,
});
