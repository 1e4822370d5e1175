import jwt from 'jsonwebtoken';
import type { PrintBatchFile } from '../../contract/print-batches';

const AUDIENCE = 'print-batch-file';
/** Long enough for the browser to start the download, short enough that a leaked URL soon dies. */
export const PRINT_BATCH_LINK_TTL_SECONDS = 5 * 60;

export interface PrintBatchLinkClaims {
  staffId: number;
  /** Epoch ms the link was issued: a staff member's "sign out everywhere" voids older links too. */
  issuedAt: number;
}

/**
 * Signed URLs for one file of one batch. A browser's download manager cannot send the staff
 * bearer header, so the photographer's app asks for such a URL and lets the browser stream a large
 * ZIP straight to disk. The link names the staff member who asked, who must still be valid.
 */
export function createPrintBatchLinks(secret: string) {
  return {
    issue(batchId: number, file: PrintBatchFile, staffId: number): { url: string; expiresAt: string } {
      const token = jwt.sign({ b: batchId, f: file, t: Date.now() }, secret, {
        algorithm: 'HS256',
        audience: AUDIENCE,
        subject: String(staffId),
        expiresIn: PRINT_BATCH_LINK_TTL_SECONDS,
      });
      return {
        url: `/api/print-batches/${batchId}/${file}?token=${encodeURIComponent(token)}`,
        expiresAt: new Date(Date.now() + PRINT_BATCH_LINK_TTL_SECONDS * 1000).toISOString(),
      };
    },

    verify(token: string, batchId: number, file: PrintBatchFile): PrintBatchLinkClaims | null {
      try {
        const claims = jwt.verify(token, secret, { algorithms: ['HS256'], audience: AUDIENCE }) as { b?: unknown; f?: unknown; t?: unknown; sub?: unknown };
        const staffId = Number(claims.sub);
        if (claims.b !== batchId || claims.f !== file || !Number.isSafeInteger(staffId) || typeof claims.t !== 'number') return null;
        return { staffId, issuedAt: claims.t };
      } catch {
        return null;
      }
    },
  };
}
export type PrintBatchLinks = ReturnType<typeof createPrintBatchLinks>;
