/**
 * The opt-out link at the end of every non-transactional SMS (docs/sms.md, "Opting out"): a short
 * link to the PWA's page `/stop-sms?token=…`, where the token is the unsubscribe token naming the
 * phone (docs/outreach.md, "Unsubscribe in one click": signed, needs no row, never expires).
 * Opening the page changes nothing (SMS apps and link previews fetch links); its button POSTs
 * `/api/guardians/unsubscribe`.
 */
import { unsubscribeToken } from '../outreach/unsubscribe';

export const SMS_OPT_OUT_PAGE = '/stop-sms';

export const smsOptOutPath = (secret: string, phone: string): string => `${SMS_OPT_OUT_PAGE}?token=${encodeURIComponent(unsubscribeToken(secret, phone))}`;

