import { describe, expect, it } from 'vitest';
import { createKeptReads } from './kept-reads';

/** A database of values by key that a test sets, counting reads; reads wait for answer() while held. */
function fakeDatabase() {
  const values = new Map<number, string | undefined>();
  const reads: number[] = [];
  const answers: (() => void)[] = [];
  let held = false;
  return {
    values,
    reads,
    hold: (on: boolean) => (held = on),
    read(key: number): Promise<string | undefined> {
      reads.push(key);
      const at = values.get(key);
      if (!held) return Promise.resolve(at);
      return new Promise((resolve) => answers.push(() => resolve(at)));
    },
    answer: () => answers.splice(0).forEach((resolve) => resolve()),
  };
}

describe('kept reads (docs/access.md, "The gallery cookie": a photo\'s state kept at most a second)', () => {
  it('reads each key at most once per max age, counted from when the read started', async () => {
    let clock = 5_000;
    const db = fakeDatabase();
    db.values.set(1, 'a').set(2, 'b');
    const kept = createKeptReads((key: number) => db.read(key), { maxAgeMs: 1000, maxEntries: 10, now: () => clock });
    expect(await kept.get(1)).toBe('a');
    expect(await kept.get(2)).toBe('b');
    db.values.set(1, 'changed');
    clock = 5_999;
    expect(await kept.get(1)).toBe('a');
    expect(db.reads).toEqual([1, 2]);
    clock = 6_000;
    expect(await kept.get(1)).toBe('changed');
    expect(db.reads).toEqual([1, 2, 1]);
  });

  it('callers while a read is on its way share it', async () => {
    const db = fakeDatabase();
    db.values.set(1, 'a');
    db.hold(true);
    const kept = createKeptReads((key: number) => db.read(key), { maxAgeMs: 1000, maxEntries: 10 });
    const both = Promise.all([kept.get(1), kept.get(1)]);
    db.answer();
    expect(await both).toEqual(['a', 'a']);
    expect(db.reads).toEqual([1]);
  });

  it('invalidate forgets every value, and a read started before it is not kept', async () => {
    const db = fakeDatabase();
    db.values.set(1, 'a');
    const kept = createKeptReads((key: number) => db.read(key), { maxAgeMs: 60_000, maxEntries: 10 });
    expect(await kept.get(1)).toBe('a');
    db.values.set(1, 'b');
    kept.invalidate();
    expect(await kept.get(1)).toBe('b');
    // A read on its way when the change is committed answers its waiter the old value, is not kept.
    db.values.set(1, 'c');
    kept.invalidate();
    db.hold(true);
    const early = kept.get(1);
    db.values.set(1, 'd');
    kept.invalidate();
    db.answer();
    expect(await early).toBe('c');
    db.hold(false);
    expect(await kept.get(1)).toBe('d');
  });

  it('keeps only what `keep` accepts, and at most maxEntries, the oldest going first', async () => {
    const db = fakeDatabase();
    db.values.set(1, 'a').set(2, 'b').set(3, 'c');
    const kept = createKeptReads((key: number) => db.read(key), { maxAgeMs: 60_000, maxEntries: 2, keep: (value) => value !== undefined });
    expect(await kept.get(9)).toBeUndefined();
    expect(await kept.get(9)).toBeUndefined();
    expect(db.reads).toEqual([9, 9]);
    db.reads.length = 0;
    await kept.get(1);
    await kept.get(2);
    await kept.get(3);
    await kept.get(3);
    await kept.get(2);
    expect(db.reads).toEqual([1, 2, 3]);
    await kept.get(1);
    expect(db.reads).toEqual([1, 2, 3, 1]);
  });

  it('a failed read is not kept', async () => {
    let fail = true;
    const kept = createKeptReads(async (key: number) => {
      if (fail) throw new Error('database down');
      return key * 2;
    }, { maxAgeMs: 60_000, maxEntries: 10 });
    await expect(kept.get(4)).rejects.toThrow('database down');
    fail = false;
    expect(await kept.get(4)).toBe(8);
  });
});
