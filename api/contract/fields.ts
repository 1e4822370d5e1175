import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants';
import { MSG } from './messages';

/** A required text field: missing, non-string or blank all give the same message. */
export const requiredText = (message: string, max = 200) =>
  z.string({ error: message }).trim().min(1, message).max(max, `${message.replace(/ is required$/, '')} is too long`);

export const optionalText = (max = 500) =>
  z
    .union([z.string(), z.null()])
    .optional()
    .transform((value) => {
      const trimmed = (value ?? '').trim();
      return trimmed === '' ? null : trimmed.slice(0, max);
    });

export const email = z
  .string({ error: MSG.validEmail })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: MSG.validEmail }).max(254, MSG.validEmail));

export const newPassword = z
  .string({ error: MSG.passwordMin })
  .min(PASSWORD_MIN_LENGTH, MSG.passwordMin)
  .max(PASSWORD_MAX_LENGTH, MSG.passwordTooLong);

/** A password to check (login, unlock): any non-empty text. */
export const givenPassword = (message: string = MSG.passwordRequired) =>
  z.string({ error: message }).min(1, message).max(PASSWORD_MAX_LENGTH, MSG.passwordTooLong);

/** Path or body ids: positive integers, sent as numbers or numeric strings. */
export const id = (message = 'A valid id is required') =>
  z
    .union([z.number({ error: message }), z.string({ error: message }).trim().regex(/^\d{1,10}$/, message).transform(Number)], {
      error: message,
    })
    .pipe(z.number().int(message).positive(message).max(2_147_483_647, message));

/** YYYY-MM-DD, or blank/absent for none. */
export const optionalDate = z
  .union([z.string(), z.null()])
  .optional()
  .transform((value) => (value ?? '').trim())
  .pipe(
    z.union([
      z.literal('').transform(() => null),
      z.iso.date({ error: 'Closing date must be a date (YYYY-MM-DD)' }),
    ]),
  );

/** An optional id that forms send as '' or 'none' when unset. */
export const optionalId = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((value) => (value === '' || value === 'none' || value === undefined ? null : value))
  .pipe(z.union([z.null(), id()]));
