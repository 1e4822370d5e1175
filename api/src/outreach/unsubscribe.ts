/**
 * One-click unsubscribe (docs/outreach.md, "Unsubscribe in one click"; RFC 8058). A token names
 * an e-mail address and is signed with the server's secret, so it needs no row and never expires:
 * an old message's link still works.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const PURPOSE = 'unsubscribe:v1:';

const mac = (secret: string, email: string): string => createHmac('sha256', secret).update(PURPOSE + email).digest('base64url').slice(0, 32);

export function unsubscribeToken(secret: string, email: string): string {
  const address = email.trim().toLowerCase();
  return `${Buffer.from(address, 'utf8').toString('base64url')}.${mac(secret, address)}`;
}

/** The address a token names, or null when it was not made by this server. */
export function verifyUnsubscribeToken(secret: string, token: string): string | null {
  const [encoded, given, extra] = token.split('.');
  if (!encoded || !given || extra !== undefined || encoded.length > 400) return null;
  const address = Buffer.from(encoded, 'base64url').toString('utf8');
  const expected = Buffer.from(mac(secret, address));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? address : null;
}

/** The link in the message's body: a page of the PWA that unsubscribes when opened (one click). */
export const unsubscribePageUrl = (publicUrl: string, token: string): string => `${publicUrl}/unsubscribe?token=${encodeURIComponent(token)}`;

/**
 * The headers of every non-transactional message: mail providers show their own "Unsubscribe"
 * button, which POSTs `List-Unsubscribe=One-Click` to the API's URL (RFC 8058 §3.1).
 */
export function unsubscribeHeaders(publicUrl: string, token: string): Record<string, string> {
  return {
    'List-Unsubscribe': `<${publicUrl}/api/guardians/unsubscribe?token=${encodeURIComponent(token)}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}
