import { describe, expect, it } from 'vitest';
import { ACCESS_VERSION_MAX_AGE_MS, createVersionReader } from './access-version';

/** A database whose version a test sets, counting reads; each read answers when the test says. */
function fakeDatabase() {
  let version = 0;
  let reads = 0;
  const answers: (() => void)[] = [];
  return {
    set: (value: number) => (version = value),
    reads: () => reads,
    /** Reads wait for answer() when held. */
    held: false,
    read(this: { held: boolean }): Promise<number> {
      reads++;
      const at = version;
      if (!this.held) return Promise.resolve(at);
      return new Promise<number>((resolve) => answers.push(() => resolve(at)));
    },
    answer: () => answers.splice(0).forEach((resolve) => resolve()),
  };
}

describe('the access version reader (docs/access.md, "The gallery cookie")', () => {
  it('reads at most once a second, and a change is seen by every call made a second after the read before it started', async () => {
    let clock = 10_000;
    const db = fakeDatabase();
    const reader = createVersionReader(() => db.read(), { now: () => clock });
    expect(await reader.current()).toBe(0);
    expect(db.reads()).toBe(1);
    db.set(1);
    // Within the second: the value read, no new read.
    for (const step of [1, 200, 500, ACCESS_VERSION_MAX_AGE_MS - 2]) {
      clock = 10_000 + step;
      expect(await reader.current()).toBe(0);
    }
    expect(db.reads()).toBe(1);
    // One second after the read started: read again, and the change is seen.
    clock = 10_000 + ACCESS_VERSION_MAX_AGE_MS;
    expect(await reader.current()).toBe(1);
    expect(db.reads()).toBe(2);
  });

  it('the second counts from when the read started, not from when it answered', async () => {
    let clock = 0;
    const db = fakeDatabase();
    db.held = true;
    const reader = createVersionReader(() => db.read.call(db), { now: () => clock });
    const first = reader.current();
    // The database takes 700 ms to answer.
    clock = 700;
    db.answer();
    expect(await first).toBe(0);
    db.set(5);
    db.held = false;
    clock = 999;
    expect(await reader.current()).toBe(0);
    clock = 1000;
    expect(await reader.current()).toBe(5);
  });

  it('calls while a read is on its way share it', async () => {
    const db = fakeDatabase();
    db.held = true;
    const reader = createVersionReader(() => db.read.call(db), { now: () => 0 });
    const calls = [reader.current(), reader.current(), reader.current()];
    db.answer();
    expect(await Promise.all(calls)).toEqual([0, 0, 0]);
    expect(db.reads()).toBe(1);
  });

  it('after invalidate() the next call reads again, and a read started before it is not kept', async () => {
    let clock = 0;
    const db = fakeDatabase();
    const reader = createVersionReader(() => db.read.call(db), { now: () => clock });
    expect(await reader.current()).toBe(0);
    db.held = true;
    clock = 1500;
    const before = reader.current();
    // This process commits a change while that read is on its way, then tells the reader.
    db.set(2);
    reader.invalidate();
    db.held = false;
    expect(await reader.current()).toBe(2);
    db.answer();
    expect(await before).toBe(0);
    clock = 1600;
    expect(await reader.current()).toBe(2);
  });

  it('a failed read is not kept: the next call reads again', async () => {
    let fail = true;
    const reader = createVersionReader(async () => {
      if (fail) throw new Error('database down');
      return 7;
    }, { now: () => 0 });
    await expect(reader.current()).rejects.toThrow('database down');
    fail = false;
    expect(await reader.current()).toBe(7);
  });
});
