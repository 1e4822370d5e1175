import jwt from 'jsonwebtoken';
import { hmacKey } from '../http/signing-key';
import { ORDER_ID_PATTERN } from './order-id';

const AUDIENCE = 'prepaid-photos';
/** Long enough for a family to take its time choosing; the list is asked again on every visit. */
export const PREPAID_PHOTO_LINK_TTL_SECONDS = 12 * 3600;

/**
 * The image addresses of a prepaid package's photos (docs/prepaid.md, "Choosing from any device"):
 * a JWT signed with JWT_SECRET (HS256, audience `prepaid-photos`, 12 hours) naming one order and one
 * package line, given only in the photo list's answer to the order's owner. An `<img>` sends no
 * customer token and the order link's browser holds no gallery access, so the token in the address
 * is what lets them load those images; the server still checks, on every image, that the photo is a
 * released photo of that line's child and the order is paid and not cancelled.
 */
export function createPrepaidPhotoLinks(secret: string) {
  const key = hmacKey(secret);
  return {
    token: (orderId: string, lineId: number): string => jwt.sign({ o: orderId, l: lineId }, key, { algorithm: 'HS256', audience: AUDIENCE, expiresIn: PREPAID_PHOTO_LINK_TTL_SECONDS }),

    /** Whether `token` is a valid, unexpired token for that order's line. */
    opens(token: string, orderId: string, lineId: number): boolean {
      if (token.length === 0 || token.length > 1000) return false;
      try {
        const claims = jwt.verify(token, key, { algorithms: ['HS256'], audience: AUDIENCE }) as { o?: unknown; l?: unknown };
        return typeof claims.o === 'string' && ORDER_ID_PATTERN.test(claims.o) && claims.o === orderId && claims.l === lineId;
      } catch {
        return false;
      }
    },
  };
}
