import { z } from 'zod';
import { MSG } from './messages';
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
});
export type SchoolCreateInput = z.infer<typeof schoolCreateSchema>;

/** PATCH /api/schools/{id}: every field optional; a blank password keeps the current one. */
export const schoolUpdateSchema = schoolCreateSchema
  .omit({ password: true })
  .partial()
  .extend({
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
  photoCount: z.number(),
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
  /** Whether this browser's access cookie already unlocks the school (D3). */
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
  albums: z.array(albumSummarySchema),
  createdAt: z.string(),
});
export type StaffSchool = z.infer<typeof staffSchoolSchema>;

export const schoolVerifyResponseSchema = z.object({
  success: z.literal(true),
  school: publicSchoolSchema,
});
