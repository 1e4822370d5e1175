import { describe, expect, it } from 'vitest';
import type { AppContext } from './context';
import { takeTurns } from './turns';

/** Turns of the event loop, counted in its check phase from the moment the test starts. */
function countTurns(): { now: () => number; stop: () => void } {
  let turn = 0;
  let running = true;
  const tick = () => {
    turn += 1;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return { now: () => turn, stop: () => (running = false) };
}

const ctx = {} as AppContext;

describe('taking turns', () => {
  it('starts a request at once when nobody waits', async () => {
    const turns = takeTurns(2);
    let started = false;
    const done = turns(ctx, async () => {
      started = true;
    });
    // No await in between: the request started within the middleware call itself.
    expect(started).toBe(true);
    await done;
  });

  it('starts at most two requests a turn, the others in the order they came in the turns after', async () => {
    const turns = takeTurns(2);
    const clock = countTurns();
    const order: { request: number; turn: number }[] = [];
    const requests = Array.from({ length: 7 }, (_, request) =>
      turns(ctx, async () => {
        order.push({ request, turn: clock.now() });
      }),
    );
    await Promise.all(requests);
    clock.stop();
    expect(order.map((entry) => entry.request)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const perTurn = new Map<number, number>();
    for (const { turn } of order) perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
    expect([...perTurn.values()]).toEqual([2, 2, 2, 1]);
    // Each group in a later turn than the one before.
    expect(new Set(order.map((entry) => entry.turn)).size).toBe(4);
  });

  it('once the queue is empty, a request in a later turn starts at once', async () => {
    const turns = takeTurns(1);
    const clock = countTurns();
    const queued = [0, 1, 2].map(() => turns(ctx, async () => undefined));
    await Promise.all(queued);
    // The turn the last of them started in is full; the next one is free.
    await new Promise((resolve) => setImmediate(resolve));
    let startedIn = -1;
    const arrivedIn = clock.now();
    await turns(ctx, async () => void (startedIn = clock.now()));
    clock.stop();
    expect(startedIn).toBe(arrivedIn);
  });

  it('an error in one request reaches its own caller and the queue goes on', async () => {
    const turns = takeTurns(1);
    const results = await Promise.allSettled([
      turns(ctx, async () => {
        throw new Error('boom');
      }),
      turns(ctx, async () => 'fine'),
    ]);
    expect(results[0]).toMatchObject({ status: 'rejected', reason: { message: 'boom' } });
    expect(results[1]).toMatchObject({ status: 'fulfilled' });
  });
});
