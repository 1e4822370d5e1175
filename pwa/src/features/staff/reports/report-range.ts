/**
 * The Reports tab's dates: Botswana calendar days as YYYY-MM-DD, both ends included
 * (docs/reports.md, "Dates and ranges"); null is an open end (the whole season).
 */
import { formatDate } from '@contract/format';
import { REPORT_SCREEN_MSG as M } from '@contract/staff-screen-messages';
import type { ReportRange } from '../api/reports';

/** A day plus `days` (negative: earlier), in calendar days. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export type Preset = 'season' | 'last7' | 'last30' | 'month';

export const PRESETS: readonly { value: Preset; label: string }[] = [
  { value: 'season', label: M.wholeSeason },
  { value: 'last7', label: M.last7 },
  { value: 'last30', label: M.last30 },
  { value: 'month', label: M.thisMonth },
];

/** The range of a preset, counted back from `today` (today included). */
export function presetRange(preset: Preset, today: string): ReportRange {
  switch (preset) {
    case 'last7':
      return { from: addDays(today, -6), to: today };
    case 'last30':
      return { from: addDays(today, -29), to: today };
    case 'month':
      return { from: `${today.slice(0, 8)}01`, to: today };
    default:
      return { from: null, to: null };
  }
}

/** The preset a range is, if any (so its button shows pressed). */
export function presetOf(range: ReportRange, today: string): Preset | null {
  return PRESETS.find(({ value }) => {
    const candidate = presetRange(value, today);
    return candidate.from === range.from && candidate.to === range.to;
  })?.value ?? null;
}

/** "1 Dec 2026" */
export const dayText = (day: string): string => formatDate(`${day}T12:00:00Z`, 'short');

/** "1 Dec 2026 to 31 Dec 2026", "The whole season" … */
export const rangeText = (range: ReportRange): string => M.rangeShown(range.from && dayText(range.from), range.to && dayText(range.to));
