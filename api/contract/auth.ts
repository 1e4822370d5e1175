import { z } from 'zod';
import { STAFF_ROLES, DEFAULT_STAFF_ROLE } from './constants';
import { MSG } from './messages';
import { email, givenPassword, newPassword, requiredText } from './fields';

export const staffLoginSchema = z.object({
  email,
  password: newPassword,
});
export type StaffLoginInput = z.infer<typeof staffLoginSchema>;

export const staffRegisterSchema = z.object({
  email,
  password: newPassword,
  firstName: requiredText(MSG.firstNameRequired, 100),
  lastName: requiredText(MSG.lastNameRequired, 100),
});
export type StaffRegisterInput = z.infer<typeof staffRegisterSchema>;

export const photographerCreateSchema = staffRegisterSchema.extend({
  role: z
    .enum(STAFF_ROLES, { error: 'Role must be photographer or admin' })
    .optional()
    .transform((role) => role ?? DEFAULT_STAFF_ROLE),
});
export type PhotographerCreateInput = z.infer<typeof photographerCreateSchema>;

/** A signed-in staff member changes their own password (docs/accounts.md, "Staff passwords"). */
export const staffChangePasswordSchema = z.object({
  currentPassword: givenPassword(MSG.currentPasswordRequired),
  newPassword,
});
export type StaffChangePasswordInput = z.infer<typeof staffChangePasswordSchema>;

/** The change-password form: the API's fields and a confirmation of the new password. */
export const staffChangePasswordFormSchema = staffChangePasswordSchema
  .extend({ confirmPassword: z.string({ error: MSG.confirmPasswordRequired }).min(1, MSG.confirmPasswordRequired) })
  .refine((value) => value.newPassword === value.confirmPassword, { message: MSG.passwordsDontMatch, path: ['confirmPassword'] });

export const staffUserSchema = z.object({
  id: z.number(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(STAFF_ROLES),
  createdAt: z.string(),
});
export type StaffUser = z.infer<typeof staffUserSchema>;

export const staffAuthResponseSchema = z.object({ token: z.string(), user: staffUserSchema });
export type StaffAuthResponse = z.infer<typeof staffAuthResponseSchema>;

export const registrationStatusSchema = z.object({ open: z.boolean() });

export const customerLoginSchema = z.object({
  email,
  password: givenPassword(MSG.passwordRequired),
});
export type CustomerLoginInput = z.infer<typeof customerLoginSchema>;

export const customerRegisterSchema = z
  .object({
    firstName: requiredText(MSG.firstNameRequired, 100),
    lastName: requiredText(MSG.lastNameRequired, 100),
    email,
    password: newPassword,
    confirmPassword: z.string({ error: MSG.confirmPasswordRequired }).min(1, MSG.confirmPasswordRequired),
  })
  .refine((value) => value.password === value.confirmPassword, {
    message: MSG.passwordsDontMatch,
    path: ['confirmPassword'],
  });
export type CustomerRegisterInput = z.infer<typeof customerRegisterSchema>;

export const forgotPasswordSchema = z.object({ email });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

/** The API takes {token, newPassword}; the form also has confirmPassword (resetPasswordFormSchema). */
export const resetPasswordSchema = z.object({
  token: z.string({ error: MSG.noResetToken }).trim().min(1, MSG.noResetToken).max(200, MSG.resetLinkInvalid),
  newPassword,
});
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

export const resetPasswordFormSchema = z
  .object({
    newPassword,
    confirmPassword: z.string({ error: MSG.confirmPasswordRequired }).min(1, MSG.confirmPasswordRequired),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: MSG.passwordsDontMatch,
    path: ['confirmPassword'],
  });

export const customerUserSchema = z.object({
  id: z.number(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  createdAt: z.string(),
});
export type CustomerUser = z.infer<typeof customerUserSchema>;

export const customerAuthResponseSchema = z.object({ token: z.string(), user: customerUserSchema });
export type CustomerAuthResponse = z.infer<typeof customerAuthResponseSchema>;
