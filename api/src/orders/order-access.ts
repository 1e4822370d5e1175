import jwt from 'jsonwebtoken';
import { hmacKey } from '../http/signing-key';
import type { AppContext } from '../http/context';
import { ORDER_ID_PATTERN } from './order-id';

export const ORDER_ACCESS_COOKIE = 'order_access';
const AUDIENCE = 'order-access';
const TTL_SECONDS = 7 * 24 * 3600;
/** The most recent orders a browser keeps access to; older ones fall off first. */
const MAX_ORDERS = 20;

/**
 * The confirmation token of the browser that placed an order (docs/access.md, "Reading an
 * order"): a signed, HttpOnly, SameSite=Lax cookie, sent only to `/api/orders`, listing the orders
 * this browser placed. It is never in a URL, a document or a file name; the order id alone opens
 * only the order's statuses and total.
 */
export function createOrderAccess(secret: string) {
  const key = hmacKey(secret);

  function read(ctx: AppContext): string[] {
    const raw = ctx.cookies.get(ORDER_ACCESS_COOKIE);
    if (!raw) return [];
    try {
      const claims = jwt.verify(raw, key, { algorithms: ['HS256'], audience: AUDIENCE }) as { o?: unknown };
      return Array.isArray(claims.o) ? claims.o.filter((id): id is string => typeof id === 'string' && ORDER_ID_PATTERN.test(id)) : [];
    } catch {
      return [];
    }
  }

  return {
    /** Whether this browser placed the order. */
    holds: (ctx: AppContext, orderId: string): boolean => read(ctx).includes(orderId),

    /** Gives the browser that placed the order its token (again, on a replay of the same request). */
    grant(ctx: AppContext, orderId: string): void {
      const orders = [...read(ctx).filter((id) => id !== orderId), orderId].slice(-MAX_ORDERS);
      const token = jwt.sign({ o: orders }, key, { algorithm: 'HS256', audience: AUDIENCE, expiresIn: TTL_SECONDS });
      ctx.cookies.set(ORDER_ACCESS_COOKIE, token, {
        httpOnly: true,
        sameSite: 'lax',
        secure: ctx.secure,
        path: '/api/orders',
        maxAge: TTL_SECONDS * 1000,
        overwrite: true,
      });
    },
  };
}
export type OrderAccess = ReturnType<typeof createOrderAccess>;
