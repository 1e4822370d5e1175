/**
 * An optional mobile number of a request (docs/sms.md, "Transactional SMS" and "Codes recovered by
 * phone"): absent, null or blank is none (null); anything else must be a mobile number, output as
 * E.164, or it is a 400 naming the field with PHONE_MSG's words.
 */
import { z } from 'zod';
import { PHONE_MSG, parsePhone } from './phone';

export const optionalPhoneField = z
  .union([z.string(), z.number(), z.null()], { error: PHONE_MSG.invalid })
  .optional()
  .transform((value, ctx): string | null => {
    const typed = value === null || value === undefined ? '' : String(value).trim();
    if (typed === '') return null;
    const parsed = parsePhone(typed);
    if (parsed.ok) return parsed.e164;
    ctx.addIssue({ code: 'custom', message: parsed.reason === 'not_mobile' ? PHONE_MSG.notMobile : PHONE_MSG.invalid });
    return z.NEVER;
  });

/**
 * A phone field of an edit (PATCH): absent leaves the stored number as it is (undefined), null or
 * blank clears it, anything else must be a mobile number (E.164), as optionalPhoneField.
 */
export const phoneChangeField = z
  .union([z.string(), z.number(), z.null()], { error: PHONE_MSG.invalid })
  .optional()
  .transform((value, ctx): string | null | undefined => {
    if (value === undefined) return undefined;
    const typed = value === null ? '' : String(value).trim();
    if (typed === '') return null;
    const parsed = parsePhone(typed);
    if (parsed.ok) return parsed.e164;
    ctx.addIssue({ code: 'custom', message: parsed.reason === 'not_mobile' ? PHONE_MSG.notMobile : PHONE_MSG.invalid });
    return z.NEVER;
  });
