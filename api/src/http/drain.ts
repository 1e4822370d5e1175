import type { IncomingMessage, ServerResponse } from 'node:http';
import { SHUTDOWN_MSG } from '../../contract/messages';

/** How long a client refused during a stop waits before trying again (another replica, or this one restarted). */
export const RESTART_RETRY_AFTER_SECONDS = 5;

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/**
 * Counts the requests under way and refuses new ones once the server stops (docs/operations.md,
 * "Stopping cleanly"). A request counts until its handler has finished and its answer has been
 * written or its connection closed, so the database is never closed under a request still working.
 * A request arriving on a kept-alive connection after the stop began gets a JSON 503 with
 * Retry-After and `Connection: close`; a new connection is not accepted at all (server.close()).
 */
export function createDrain() {
  let draining = false;
  const open = new Set<ServerResponse>();
  let wake: (() => void) | null = null;

  return {
    get inFlight() {
      return open.size;
    },

    wrap(handler: Handler) {
      return (req: IncomingMessage, res: ServerResponse) => {
        if (draining) {
          res.shouldKeepAlive = false;
          res.writeHead(503, {
            'Content-Type': 'application/json; charset=utf-8',
            'Cache-Control': 'no-store',
            'Retry-After': String(RESTART_RETRY_AFTER_SECONDS),
            Connection: 'close',
          });
          res.end(JSON.stringify({ message: SHUTDOWN_MSG.restarting, code: 'SERVER_RESTARTING' }));
          // Whatever body the client still sends is not read: the connection ends with the answer.
          req.resume();
          return;
        }
        open.add(res);
        let handled = false;
        let closed = false;
        const settle = () => {
          if (!handled || !closed) return;
          open.delete(res);
          if (open.size === 0) wake?.();
        };
        res.once('close', () => {
          closed = true;
          settle();
        });
        Promise.resolve(handler(req, res))
          .catch(() => undefined)
          .finally(() => {
            handled = true;
            settle();
          });
      };
    },

    /** From now on: no keep-alive on the answers under way, and a 503 for any request that still comes. */
    begin(): void {
      draining = true;
      for (const res of open) if (!res.headersSent) res.shouldKeepAlive = false;
    },

    /** Resolves true when every request under way has finished, false when `timeoutMs` passed first. */
    async idle(timeoutMs: number): Promise<boolean> {
      if (open.size === 0) return true;
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          wake = null;
          resolve(false);
        }, timeoutMs);
        wake = () => {
          clearTimeout(timer);
          wake = null;
          resolve(true);
        };
      });
    },
  };
}
export type Drain = ReturnType<typeof createDrain>;
