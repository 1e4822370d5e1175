/**
 * Phone numbers as parents type them (docs/sms.md, "Phone numbers"): one parser for the API and
 * the PWA, Botswana by default, stored as E.164 (+26771234567). Only numbers that can receive an
 * SMS are accepted: a mobile number (Botswana: 8 digits starting with 7), or in other countries a
 * number the phone-number library's mobile rules know as mobile (or as fixed line or mobile, where a
 * country's numbers do not tell them apart).
 */
import { z } from 'zod';
import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';

/** The country a number without a country code belongs to. */
export const DEFAULT_PHONE_COUNTRY = 'BW';

export const PHONE_MSG = {
  required: 'Enter a mobile number, e.g. 71 234 567',
  invalid: 'That is not a phone number we can reach: enter a mobile number, e.g. 71 234 567 or +267 71 234 567',
  notMobile: 'That looks like a landline: enter a mobile number (in Botswana 8 digits starting with 7, e.g. 71 234 567)',
} as const;

export type ParsedPhone = { ok: true; e164: string } | { ok: false; reason: 'invalid' | 'not_mobile' };

/** Longer than any phone number written with spaces and a country code: refused before parsing. */
const MAX_INPUT = 40;

/**
 * "71 234 567", "+267 71 234 567", "26771234567" and "0026771234567" all give "+26771234567". A
 * number of a possible length that is not a mobile one (a Botswana landline, "391 2345") is
 * `not_mobile`; anything else that is no valid mobile number is `invalid`.
 */
export function parsePhone(input: string): ParsedPhone {
  const trimmed = input.trim();
  if (trimmed === '' || trimmed.length > MAX_INPUT || !/^[+0-9 ().\-/]+$/.test(trimmed)) return { ok: false, reason: 'invalid' };
  const parsed = parsePhoneNumberFromString(trimmed, DEFAULT_PHONE_COUNTRY);
  if (!parsed) return { ok: false, reason: 'invalid' };
  // The mobile metadata knows only mobile numbers: a landline is not valid in it, but possible.
  if (parsed.isValid()) {
    const type = parsed.getType();
    if (type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE') return { ok: true, e164: parsed.number };
    return { ok: false, reason: 'not_mobile' };
  }
  return { ok: false, reason: parsed.isPossible() ? 'not_mobile' : 'invalid' };
}

/**
 * A phone field of a request: trimmed, parsed, output as E.164; a bad one is a 400 naming the
 * field with PHONE_MSG's words.
 */
export const phoneField = z
  .string({ error: PHONE_MSG.required })
  .trim()
  .min(1, PHONE_MSG.required)
  .transform((value, ctx) => {
    const parsed = parsePhone(value);
    if (parsed.ok) return parsed.e164;
    ctx.addIssue({ code: 'custom', message: parsed.reason === 'not_mobile' ? PHONE_MSG.notMobile : PHONE_MSG.invalid });
    return z.NEVER;
  });

/**
 * A number partly hidden, for a page that confirms where a code went: the country code, the first
 * digit and the last two ("+267 7••• ••67").
 */
export function maskPhone(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return '•••';
  const national = String(parsed.nationalNumber);
  const hidden = national.slice(1, -2).replace(/./g, '•');
  const body = `${national.slice(0, 1)}${hidden}${national.slice(-2)}`;
  // Grouped in fours from the end: "7••• ••67", "8 •••• ••67".
  const groups: string[] = [];
  for (let end = body.length; end > 0; end -= 4) groups.unshift(body.slice(Math.max(0, end - 4), end));
  return `+${parsed.countryCallingCode} ${groups.join(' ')}`;
}
