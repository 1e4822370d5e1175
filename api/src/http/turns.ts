import type { Middleware } from './context';

/** How many requests one turn of the event loop starts at most while others wait. */
export const REQUESTS_PER_TURN = 2;

/**
 * Requests take turns (docs/operations.md, "Taking turns in a rush"): each turn of the event loop
 * starts at most `perTurn` new requests, and a request that finds the turn taken waits, in the
 * order the requests came, for the next turn (Node's check phase, `setImmediate`).
 *
 * Why: Node accepts one new connection per turn of its loop, and on SQLite a request runs from its
 * first byte to its answer without waiting on anything, so a turn that reads fifty requests runs
 * fifty requests. In a rush the turns grew to tens of milliseconds; the parents whose connections
 * were already open were served again and again, while those who had just opened one waited in
 * the kernel's queue, up to three seconds. Taking turns keeps each turn short, so the loop goes
 * back to the network every few milliseconds and serves everyone in the order they came. On a
 * free server no request waits.
 */
export function takeTurns(perTurn = REQUESTS_PER_TURN): Middleware {
  const waiting: (() => void)[] = [];
  /** Requests started in the current turn. */
  let started = 0;
  /** Whether the end of the current turn is scheduled. */
  let scheduled = false;

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(nextTurn);
  };
  // A new turn: the first requests waiting start now, and the turn after is scheduled while this
  // one is busy (an idle loop schedules nothing).
  const nextTurn = () => {
    scheduled = false;
    started = 0;
    while (started < perTurn && waiting.length > 0) {
      started += 1;
      waiting.shift()?.();
    }
    if (started > 0) schedule();
  };

  return async (_ctx, next) => {
    if (waiting.length === 0 && started < perTurn) {
      started += 1;
      schedule();
      return next();
    }
    await new Promise<void>((resolve) => {
      waiting.push(resolve);
      schedule();
    });
    return next();
  };
}
