/**
 * Consent given by a person, once (docs/outreach.md, "Double opt-in"): the e-mailed link opens the
 * PWA's page, which changes nothing; its button confirms with `POST /api/guardians/confirm`. The
 * texts of that page and of the API's answers about it.
 */
import { z } from 'zod';

/** How long an unconfirmed guardian and their links stay after the last link's end (docs/outreach.md, "Unconfirmed addresses go"). */
export const UNCONFIRMED_GUARDIAN_KEPT_MS = 14 * 24 * 60 * 60 * 1000;

export const GUARDIAN_CONSENT_MSG = {
  tokenRequired: 'The link is missing its token',
  linkUsed: 'This confirmation link has already been used. Each link confirms once; to be e-mailed about more, subscribe again from the gallery.',
  confirmFromPage: 'Please confirm from the page the link in your e-mail opened.',
  /** The PWA's page the e-mailed link opens. */
  pageTitle: 'Confirm your e-mail address',
  pageWhat: 'Someone asked us to e-mail this address when the photos are online and before ordering closes. If that was you, confirm below. If not, close this page: nothing will be sent.',
  confirmButton: 'Yes, e-mail me',
  confirming: 'Confirming...',
  usedTitle: 'This link has already been used',
  noToken: 'This link is incomplete. Please open the link from your e-mail again, or subscribe again from the gallery.',
  /** Staff: a guardian who never confirmed has given no consent. */
  consentNotGiven: 'Not given: the address or number was never confirmed',
} as const;

/**
 * POST /api/guardians/confirm: the e-mailed link's `{ token }`, or a phone's `{ phone, code }`
 * (`guardianConfirmByCodeSchema` in guardian-phone.ts, docs/outreach.md, "Double opt-in: by phone").
 */
export const guardianConfirmByTokenSchema = z.object({
  token: z
    .string({ error: GUARDIAN_CONSENT_MSG.tokenRequired })
    .trim()
    .min(1, GUARDIAN_CONSENT_MSG.tokenRequired)
    .max(600, GUARDIAN_CONSENT_MSG.tokenRequired),
});
/** A link's press; the whole request (a link or a code) is `guardianConfirmSchema` in guardian-phone.ts, kept apart so pages that only press links never load the phone rules. */
export const guardianConfirmRequestSchema = guardianConfirmByTokenSchema;
export type GuardianConfirmRequest = z.input<typeof guardianConfirmRequestSchema>;
