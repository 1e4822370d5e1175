import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from './constants';
import { MSG } from './messages';
import { givenPassword, id, requiredText } from './fields';

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

/** PATCH: name and/or password; a blank or null password removes protection. */
export const albumUpdateSchema = z.object({
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

export const albumResponseSchema = z.object({
  id: z.number(),
  name: z.string(),
  schoolId: z.number(),
  hasPassword: z.boolean(),
  photoCount: z.number(),
});
export type AlbumResponse = z.infer<typeof albumResponseSchema>;
