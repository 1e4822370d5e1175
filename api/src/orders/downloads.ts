import jwt from 'jsonwebtoken';
import { hmacKey } from '../http/signing-key';

const AUDIENCE = 'download';
export const DOWNLOAD_TTL_SECONDS = 30 * 24 * 3600;

/**
 * Signed links for paid digital copies (docs/access.md, "Download links for digital copies"): HS256 over the order and item, 30 days. A fresh
 * link is issued every time an order is shown, so My Orders re-issues expired ones.
 */
export function createDownloadLinks(secret: string, publicUrl: string) {
  const key = hmacKey(secret);
  return {
    url(orderId: string, itemId: number): string {
      const token = jwt.sign({ o: orderId, i: itemId }, key, { algorithm: 'HS256', audience: AUDIENCE, expiresIn: DOWNLOAD_TTL_SECONDS });
      return `${publicUrl}/api/downloads/${token}`;
    },
    verify(token: string): { orderId: string; itemId: number } | null {
      try {
        const claims = jwt.verify(token, key, { algorithms: ['HS256'], audience: AUDIENCE }) as { o?: unknown; i?: unknown };
        if (typeof claims.o !== 'string' || typeof claims.i !== 'number') return null;
        return { orderId: claims.o, itemId: claims.i };
      } catch {
        return null;
      }
    },
  };
}
export type DownloadLinks = ReturnType<typeof createDownloadLinks>;
