import { z } from 'zod';
import { STUDENT_MSG, MSG } from './messages';
import { email, id } from './fields';
import { ROSTER_MAX_ROWS, STUDENT_CODE_LENGTH, isStudentCode, normaliseStudentCode } from './student-codes';
import { confirmSoldField } from './withdrawn-photos';
import { phoneField } from './phone';
import { optionalPhoneField, phoneChangeField } from './optional-phone';

/** Names are kept as typed (Setswana and accented names included), in one Unicode form, trimmed. */
const studentName = z
  .string({ error: STUDENT_MSG.nameRequired })
  .transform((value) => value.normalize('NFC').trim())
  .pipe(z.string().min(1, STUDENT_MSG.nameRequired).max(150, STUDENT_MSG.nameTooLong));

const studentNumber = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((value) => (value === null || value === undefined ? '' : String(value).normalize('NFC').trim()))
  .pipe(z.string().max(40, STUDENT_MSG.numberTooLong))
  .transform((value) => (value === '' ? null : value));

const guardianEmail = z
  .union([z.string(), z.null()])
  .optional()
  .transform((value) => (value ?? '').trim())
  .pipe(z.union([z.literal('').transform(() => null), email]));

/**
 * A guardian's mobile number (docs/sms.md, "Codes recovered by phone"): blank or absent is none;
 * anything else must be a mobile number, stored E.164, or the row is refused naming `guardianPhone`.
 */
const guardianPhone = optionalPhoneField;

/** One roster row, from JSON or from a CSV line: the same rules either way. */
export const studentInputSchema = z.object({
  name: studentName,
  number: studentNumber,
  guardianEmail,
  guardianPhone,
});
export type StudentInput = z.output<typeof studentInputSchema>;

/** POST /api/albums/{id}/students as JSON: the rows are checked one by one so each gets its reason. */
export const rosterJsonSchema = z.object({
  students: z
    .array(z.record(z.string(), z.unknown()), { error: STUDENT_MSG.rosterEmpty })
    .min(1, STUDENT_MSG.rosterEmpty)
    .max(ROSTER_MAX_ROWS, STUDENT_MSG.rosterTooManyRows(ROSTER_MAX_ROWS)),
});

/**
 * An edit changes only the fields it names: an absent number or e-mail stays as it is (undefined),
 * so "do not publish" and "new code" leave the roster row's other fields alone; null or blank
 * clears one.
 */
const unlessAbsent = <T extends z.ZodType>(schema: T) =>
  z
    .unknown()
    .optional()
    .transform((value, ctx): z.output<T> | undefined => {
      if (value === undefined) return undefined;
      const parsed = schema.safeParse(value);
      if (parsed.success) return parsed.data;
      for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
      return z.NEVER;
    });

export const studentUpdateSchema = z.object({
  name: studentName.optional(),
  number: unlessAbsent(studentNumber),
  guardianEmail: unlessAbsent(guardianEmail),
  /** Absent: unchanged; null or blank: cleared. */
  guardianPhone: phoneChangeField,
  doNotPublish: z.boolean({ error: 'doNotPublish must be true or false' }).optional(),
  /**
   * The child's default pose (docs/prepaid.md, "The studio fills what nobody chose"): one of the
   * child's own photos, marked on the review sheet; null clears it. The closing date's fill uses it
   * for a prepaid package nobody chose photos for, else the child's first released photo.
   */
  defaultPhotoId: z.union([z.null(), id('The default photo must be a photo id')], { error: 'The default photo must be a photo id, or null' }).optional(),
  /** Replaces the code (a lost or shared flyer); the old code stops working at once. */
  newCode: z.literal(true, { error: 'newCode can only be true' }).optional(),
  /** Staff read the 409 `PHOTO_SOLD` warning before marking the child do not publish, and go on (docs/access.md, "Moving a sold photo"). */
  confirm: confirmSoldField,
});
export type StudentUpdateInput = z.output<typeof studentUpdateSchema>;

export const studentVerifySchema = z.object({
  code: z
    .string({ error: STUDENT_MSG.codeRequired })
    .max(40, STUDENT_MSG.codeFormat)
    .transform(normaliseStudentCode)
    .pipe(z.string().min(1, STUDENT_MSG.codeRequired).refine(isStudentCode, STUDENT_MSG.codeFormat)),
});

export const assignPhotosSchema = z.object({
  photoIds: z.array(id('Photo ids must be positive whole numbers'), { error: MSG.photoIdsRequired }).min(1, MSG.photoIdsRequired).max(5000),
  studentId: z.union([z.null(), id('Student id must be a positive whole number')], { error: 'Choose a student, or null for a group photo' }),
  /** Staff read the 409 `PHOTO_SOLD` warning and go on (docs/access.md, "Moving a sold photo"). */
  confirm: confirmSoldField,
});
export type AssignPhotosInput = z.output<typeof assignPhotosSchema>;

/** A student as staff see it: the code is shown so it can be reprinted. */
export const studentSchema = z.object({
  id: z.number(),
  albumId: z.number(),
  name: z.string(),
  number: z.string().nullable(),
  guardianEmail: z.string().nullable(),
  /** E.164 (+26771234567), for the code recovered by SMS (docs/sms.md, "Codes recovered by phone"). */
  guardianPhone: z.string().nullable(),
  /** XXXX-XXXX */
  code: z.string().length(STUDENT_CODE_LENGTH + 1),
  doNotPublish: z.boolean(),
  photoCount: z.number(),
  /** The photo staff marked as the child's default pose on the review sheet, or null (docs/prepaid.md). */
  defaultPhotoId: z.number().nullable(),
  createdAt: z.string(),
});
export type Student = z.infer<typeof studentSchema>;

export const rosterImportResponseSchema = z.object({ students: z.array(studentSchema) });

/** ?dryRun=true: what an import would do, row by row, without importing. */
export const rosterPreviewSchema = z.object({
  valid: z.boolean(),
  rows: z.array(
    z.object({
      row: z.number(),
      name: z.string(),
      number: z.string().nullable(),
      guardianEmail: z.string().nullable(),
      guardianPhone: z.string().nullable(),
      error: z.string().nullable(),
    }),
  ),
});
export type RosterPreview = z.infer<typeof rosterPreviewSchema>;

/** POST /api/students/recover: a guardian's mobile number, as typed (docs/sms.md, "Codes recovered by phone"). */
export const codeRecoveryRequestSchema = z.object({ phone: phoneField });

/** 202: the same answer whether or not the number is on a class list. */
export const codeRecoveryResponseSchema = z.object({ message: z.string() });
export type CodeRecoveryResponse = z.infer<typeof codeRecoveryResponseSchema>;

/** What a family's browser holds for one unlocked child. */
export const unlockedStudentSchema = z.object({
  student: z.object({ id: z.number(), name: z.string() }),
  school: z.object({ id: z.number(), name: z.string(), slug: z.string() }),
  album: z.object({ id: z.number(), name: z.string() }),
});
export type UnlockedStudent = z.infer<typeof unlockedStudentSchema>;

export const studentVerifyResponseSchema = unlockedStudentSchema.extend({ success: z.literal(true) });
export type StudentVerifyResponse = z.infer<typeof studentVerifyResponseSchema>;

export const erasureResponseSchema = z.object({
  erasedAt: z.string(),
  photosDeleted: z.number(),
  orderLinesRedacted: z.number(),
});
export type ErasureResponse = z.infer<typeof erasureResponseSchema>;
