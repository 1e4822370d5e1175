/**
 * Consent by phone (docs/outreach.md, "Double opt-in: by phone"; docs/sms.md, "Consent by phone"):
 * a subscribe with a mobile number gets one SMS with a 6-digit code, and entering that code on the
 * shop's page confirms it. The code's SMS, the API's answers about codes and the PWA's words.
 */
import { z } from 'zod';
import { guardianConfirmByTokenSchema } from './guardian-consent';
import { phoneField } from './phone';
import { SMS_MAX_UNITS, smsSegments, toGsm7 } from './sms-text';

/** A code is good for 15 minutes after its SMS was written. */
export const CONFIRM_CODE_TTL_MS = 15 * 60 * 1000;
/** Five wrong codes end a code: the parent asks for a new one. */
export const CONFIRM_CODE_MAX_TRIES = 5;
export const CONFIRM_CODE_LENGTH = 6;

export const GUARDIAN_PHONE_MSG = {
  /** The answer to a subscribe with a phone, the same for a known, an unknown and an unsubscribed number. */
  subscribeAccepted: 'Thank you. We are sending a 6-digit code by SMS: enter it here to confirm your number.',
  subscribeAcceptedBoth:
    'Thank you. We are sending a 6-digit code by SMS (enter it here to confirm your number) and an e-mail with a link to confirm your address.',
  contactRequired: 'Enter a mobile number or an e-mail address',
  codeRequired: 'Enter the 6-digit code from the SMS',
  codeWrong: (left: number) => `That code is not right. ${left === 1 ? '1 try is' : `${left} tries are`} left for this code.`,
  codeEnded: 'That code is not right, and it was the last try for this code. Please ask for a new code.',
  codeExpired: 'This code has expired: codes work for 15 minutes. Please ask for a new code.',
  codeUsed: 'This code has already been used. To follow more photos, ask for a new code.',
  codeNone: 'There is no code waiting for this number on this device. Check the number, or ask for a new code.',
  confirmFromPage: 'Please enter the code on the shop page where you asked for it.',
  confirmed: 'Your number is confirmed. We will send an SMS when photos are online and before ordering closes.',
  /** An SMS's unsubscribe token names the number (GET changes nothing, POST unsubscribes). */
  unsubscribePrompt: 'Stop the SMS to this number? We will stop every reminder and offer to it at once.',
  unsubscribed: 'You are unsubscribed. We will not send SMS about photos, reminders or offers again unless you subscribe again.',
} as const;

/** The SMS's words before the shop's name is put in. */
const CODE_SMS = (code: string, business: string) =>
  `${code} is your ${business} code to get SMS about your child's school photos. It works for 15 minutes. Did not ask? Ignore this SMS.`;

/** The shop's name as the code's SMS says it: GSM-7 letters, cut so the SMS stays one segment. */
const BUSINESS_IN_SMS_MAX = 30;

/**
 * The one SMS a phone gets before it is confirmed: the code first (so a phone can offer it from the
 * notification), no link, one GSM-7 segment whatever the shop's name.
 */
export function guardianPhoneCodeSms(code: string, businessName: string): string {
  const business = toGsm7(businessName).replace(/\s+/g, ' ').trim().slice(0, BUSINESS_IN_SMS_MAX).trim() || 'photo';
  const text = CODE_SMS(code, business);
  const { encoding, units } = smsSegments(text);
  // The name is already GSM-7 and cut; this never happens, and would cost the photographer twice if it did.
  if (encoding !== 'GSM-7' || units > SMS_MAX_UNITS) return CODE_SMS(code, 'photo');
  return text;
}

/** The parents' screens: the channel choice and the code entry. */
export const GUARDIAN_PHONE_SCREEN_MSG = {
  channelLegend: 'How should we reach you?',
  bySms: 'By SMS',
  byEmail: 'By e-mail',
  phoneLabel: 'Mobile number',
  phoneHint: 'e.g. 71 234 567',
  codeTitle: 'Enter the code from the SMS',
  codeSentTo: (phone: string) => `We sent a 6-digit code to ${phone}. It works for 15 minutes.`,
  codeLabel: '6-digit code',
  confirm: 'Confirm',
  confirming: 'Confirming...',
  newCode: 'Send a new code',
  newCodeSent: 'We sent a new code. Use the newest one.',
  otherNumber: 'Use another number',
  confirmedTitle: 'Your number is confirmed',
  confirmedWhat: "You'll get an SMS when the photos are online and a few reminders before ordering closes, at most one a day.",
  confirmedStop: 'Each of these SMS has a link to stop them.',
} as const;

/** A code as typed: spaces and dashes ignored ("123 456"), then exactly six digits. */
export const confirmCodeField = z
  .string({ error: GUARDIAN_PHONE_MSG.codeRequired })
  .transform((value) => value.replace(/[\s-]/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, GUARDIAN_PHONE_MSG.codeRequired));

/** POST /api/guardians/confirm `{ phone, code }`: the code an SMS brought, entered on the shop's page. */
export const guardianConfirmByCodeSchema = z.object({
  phone: phoneField,
  code: confirmCodeField,
});
export type GuardianConfirmByCode = z.input<typeof guardianConfirmByCodeSchema>;

/** POST /api/guardians/confirm: a link's `{ token }` or a code's `{ phone, code }`. */
export const guardianConfirmSchema = z.union([guardianConfirmByTokenSchema, guardianConfirmByCodeSchema]);
export type GuardianConfirmInput = z.input<typeof guardianConfirmSchema>;

/**
 * The member of the union a body means, so a 400 names that member's fields: a body with a `phone`
 * or a `code` (and no `token`) is a code, anything else a link's press (an empty body is told its
 * token is missing, as before codes existed).
 */
export const guardianConfirmSchemaFor = (body: unknown) =>
  typeof body === 'object' && body !== null && !('token' in body) && ('phone' in body || 'code' in body) ? guardianConfirmByCodeSchema : guardianConfirmByTokenSchema;
