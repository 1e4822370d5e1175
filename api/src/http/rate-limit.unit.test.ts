import { describe, expect, it } from 'vitest';
import { slowdownDelay } from './rate-limit';

describe('slowdownDelay', () => {
  const policy = { seconds: 3600, free: 10, maxDelayMs: 5000 };

  it('is free up to the allowance, then doubles every five failures up to the maximum', () => {
    expect([1, 10].map((n) => slowdownDelay(n, policy))).toEqual([0, 0]);
    expect([11, 15, 16, 21, 26].map((n) => slowdownDelay(n, policy))).toEqual([250, 250, 500, 1000, 2000]);
    expect(slowdownDelay(31, policy)).toBe(4000);
    expect(slowdownDelay(36, policy)).toBe(5000);
    expect(slowdownDelay(10_000, policy)).toBe(5000);
  });
});
