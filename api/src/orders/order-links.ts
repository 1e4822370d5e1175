import jwt from 'jsonwebtoken';
import { hmacKey } from '../http/signing-key';
import { ORDER_ID_PATTERN } from './order-id';

const AUDIENCE = 'order-link';
/** As long as a download link (downloads.ts): the SMS's link opens the order while its downloads do. */
export const ORDER_LINK_TTL_SECONDS = 30 * 24 * 3600;

/**
 * The link of an order's SMS (docs/access.md, "Reading an order"; docs/sms.md, "Transactional
 * SMS"): `GET /api/orders/{id}/open?t={token}`, a JWT signed with JWT_SECRET (HS256, audience
 * `order-link`, 30 days) naming the order. Opened, it gives that browser the order's confirmation
 * token (the `order_access` cookie, as the browser that placed the order has) and sends it on to
 * the confirmation page, where the family's view shows the order and its download links. It is
 * only ever the target of a short link sent to the order's own phone.
 */
export function createOrderLinks(secret: string) {
  const key = hmacKey(secret);
  return {
    /** The path a short link points to (on PUBLIC_URL). */
    path(orderId: string): string {
      const token = jwt.sign({ o: orderId }, key, { algorithm: 'HS256', audience: AUDIENCE, expiresIn: ORDER_LINK_TTL_SECONDS });
      return `/api/orders/${encodeURIComponent(orderId)}/open?t=${token}`;
    },

    /** Whether `token` is a valid, unexpired link to `orderId`. */
    opens(token: string, orderId: string): boolean {
      try {
        const claims = jwt.verify(token, key, { algorithms: ['HS256'], audience: AUDIENCE }) as { o?: unknown };
        return typeof claims.o === 'string' && ORDER_ID_PATTERN.test(claims.o) && claims.o === orderId;
      } catch {
        return false;
      }
    },
  };
}
export type OrderLinks = ReturnType<typeof createOrderLinks>;
