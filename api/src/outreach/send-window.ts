/**
 * When a non-transactional message may go out (docs/outreach.md, "The sending window"): inside the
 * school's window in Botswana time, and at most one per address per local day. Pure functions of
 * the clock, so tests move the clock instead of waiting.
 */
import { DEFAULT_SEND_FROM, DEFAULT_SEND_UNTIL } from '../../contract/outreach';

/** Botswana keeps UTC+2 all year (no daylight saving), so Africa/Gaborone is a fixed offset. */
export const GABORONE_OFFSET_MS = 2 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface SendWindow {
  /** "HH:MM", Botswana time. */
  from: string;
  until: string;
}
export const DEFAULT_WINDOW: SendWindow = { from: DEFAULT_SEND_FROM, until: DEFAULT_SEND_UNTIL };

const minutes = (clock: string): number => {
  const [h, m] = clock.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/** The start (epoch ms) of the Botswana calendar day that holds `at`. */
export function localDayStart(at: number): number {
  return Math.floor((at + GABORONE_OFFSET_MS) / DAY_MS) * DAY_MS - GABORONE_OFFSET_MS;
}

/** Midnight (Botswana time, epoch ms) of a calendar date "YYYY-MM-DD". */
export function localMidnight(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) - GABORONE_OFFSET_MS;
}

/** The Botswana calendar date "YYYY-MM-DD" of `at`. */
export function localDate(at: number): string {
  return new Date(at + GABORONE_OFFSET_MS).toISOString().slice(0, 10);
}

/** The first moment at or after `earliest` that lies inside the window (the window's start on the next day when it has closed). */
export function nextInWindow(earliest: number, window: SendWindow = DEFAULT_WINDOW): number {
  const day = localDayStart(earliest);
  const opens = day + minutes(window.from) * 60_000;
  const closes = day + minutes(window.until) * 60_000;
  if (earliest < opens) return opens;
  if (earliest < closes) return earliest;
  return opens + DAY_MS;
}

/**
 * The send time for a message to an address: the first moment in the window at or after
 * `earliest` on a Botswana day on which `busyDays` (the local day starts already holding a
 * non-transactional message to that address) has none.
 */
export function planSend(earliest: number, busyDays: ReadonlySet<number>, window: SendWindow = DEFAULT_WINDOW): number {
  let at = nextInWindow(earliest, window);
  for (let guard = 0; guard < 400 && busyDays.has(localDayStart(at)); guard++) {
    at = nextInWindow(localDayStart(at) + DAY_MS, window);
  }
  return at;
}
