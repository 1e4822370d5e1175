/**
 * Codes recovered by phone (docs/sms.md, "Codes recovered by phone"): a guardian whose mobile
 * number is on a class list gets their children's code links by SMS. The words of the code form's
 * "Lost your code?", its small form and its neutral answer, the flyer's line, the SMS and the
 * limits. No zod and no phone parser here: the lazily loaded form imports this file (the code
 * form on the first screen only code-recovery-link.ts); the server checks the number
 * (`codeRecoveryRequestSchema` in students.ts).
 */
import { CODE_RECOVERY_LINK } from './code-recovery-link';

/** Every request counts: per client, and per phone (an hour and a day), then 429 with Retry-After. */
export const CODE_RECOVERY_LIMITS = {
  perClientPerHour: 20,
  perPhonePerHour: 3,
  perPhonePerDay: 5,
} as const;

/** At most this many SMS answer one request (a number on many rows costs the photographer no more). */
export const CODE_RECOVERY_MAX_SMS = 3;
/** How long the short links of a recovery SMS open the code page. */
export const CODE_RECOVERY_LINK_TTL_MS = 30 * 24 * 60 * 60 * 1000;


export const CODE_RECOVERY_MSG = {
  /** The code form's link and the flyer's line. */
  lost: CODE_RECOVERY_LINK,
  title: 'Get your code by SMS',
  intro: "Enter the mobile number the school has for you. If it is on your child's class list, we send the code by SMS.",
  phoneLabel: 'Mobile number',
  phonePlaceholder: 'e.g. 71 234 567',
  phoneRequired: 'Enter your mobile number, e.g. 71 234 567',
  submit: 'Send my code',
  sending: 'Sending…',
  close: 'Close',
  /** The same answer whether or not the number is on a class list (nothing is revealed). */
  answer: "If this number is on the class list, an SMS with your child's code is on its way.",
  answerHint: 'It can take a minute. No SMS? Ask the school to check the number they have for you.',
  failed: 'We could not send that. Please try again.',
  /** 403 for a request not from the shop's own pages. */
  fromPage: 'Ask for your code on the shop’s own page.',
  /** The flyer's line under the code: where to ask. */
  flyerLost: (site: string) => `Lost your code? Get it by SMS at ${site}`,
} as const;

/** A roster row's phone problem names its column. */
export const STUDENT_PHONE_MSG = {
  rowPhone: (problem: string) => `Guardian phone (guardianPhone): ${problem}`,
  column: 'Guardian phone',
  /** The staff's roster form: what the number is for. */
  fieldHint: "A mobile number: the family can get the child's code by SMS if the flyer is lost.",
} as const;

/** The SMS: a head line, then one line per child (its name, code and short link). */
export const CODE_RECOVERY_SMS = {
  head: (shop: string, several: boolean) => `${shop} photo code${several ? 's' : ''}:`,
  child: (name: string, code: string, link: string) => `${name} ${code} ${link}`,
} as const;
