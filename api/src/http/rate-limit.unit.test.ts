import { describe, expect, it } from 'vitest';
import { paceWait, slowdownDelay } from './rate-limit';
import { clientKey } from './context';

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

describe('paceWait', () => {
  it('is free up to the allowance, then 1, 1, 2, 2, 4, 4 ... seconds up to the cap', () => {
    expect([1, 10].map((n) => paceWait(n, 10, 60))).toEqual([0, 0]);
    expect([11, 12, 13, 14, 15, 16, 17].map((n) => paceWait(n, 10, 60))).toEqual([1, 1, 2, 2, 4, 4, 8]);
    expect(paceWait(10_000, 10, 60)).toBe(60);
  });
});

describe('clientKey', () => {
  it('counts an IPv4 address as itself and an IPv6 address by its /64', () => {
    expect(clientKey('41.76.8.15')).toBe('41.76.8.15');
    expect(clientKey('::ffff:41.76.8.15')).toBe('41.76.8.15');
    expect(clientKey('2001:db8:1:2::a')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });
});
