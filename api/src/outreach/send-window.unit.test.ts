import { describe, expect, it } from 'vitest';
import { localDate, localDayStart, localMidnight, nextInWindow, planSend } from './send-window';

const at = (iso: string) => Date.parse(iso);

describe('the sending window (Botswana time, UTC+2)', () => {
  it('waits for 08:00 Gaborone when it is earlier, sends at once inside, and moves to the next morning after 19:00', () => {
    expect(new Date(nextInWindow(at('2026-12-01T04:00:00Z'))).toISOString()).toBe('2026-12-01T06:00:00.000Z');
    expect(new Date(nextInWindow(at('2026-12-01T10:30:00Z'))).toISOString()).toBe('2026-12-01T10:30:00.000Z');
    expect(new Date(nextInWindow(at('2026-12-01T17:00:00Z'))).toISOString()).toBe('2026-12-02T06:00:00.000Z');
    // 23:30 UTC is already 01:30 the next day in Gaborone.
    expect(new Date(nextInWindow(at('2026-12-01T23:30:00Z'))).toISOString()).toBe('2026-12-02T06:00:00.000Z');
  });

  it('honours a school window of its own', () => {
    expect(new Date(nextInWindow(at('2026-12-01T06:30:00Z'), { from: '09:15', until: '12:00' })).toISOString()).toBe('2026-12-01T07:15:00.000Z');
  });

  it('keeps to one message per address per local day', () => {
    const busy = new Set([localDayStart(at('2026-12-01T10:00:00Z')), localDayStart(at('2026-12-02T10:00:00Z'))]);
    expect(new Date(planSend(at('2026-12-01T10:00:00Z'), busy)).toISOString()).toBe('2026-12-03T06:00:00.000Z');
  });

  it('names Botswana dates', () => {
    expect(localDate(at('2026-12-01T22:30:00Z'))).toBe('2026-12-02');
    expect(new Date(localMidnight('2026-12-02')).toISOString()).toBe('2026-12-01T22:00:00.000Z');
  });
});
