/**
 * The Reports tab's two charts, drawn with uPlot on a canvas. This module is the only one that
 * imports uPlot, and the tab loads it with a dynamic import when it opens, so the library lands in
 * a chunk of its own named staff-charts-*: never in a parent's download, never precached by the
 * service worker (it skips staff-* files), and `npm run build:check` fails if uPlot shows up in
 * any other file (docs/reports.md, "The Reports tab").
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ReportPeriod, SalesPeriod, SalesTailDay } from '@contract/reports';
import { formatPula } from '@contract/money';
import { REPORT_SCREEN_MSG as M } from '@contract/staff-screen-messages';

export const CHART_HEIGHT = 240;
const DAY_SECONDS = 86_400;

/** The period's first day at midnight UTC, in seconds: uPlot's time axis, labelled in UTC so the day never shifts. */
const daySeconds = (day: string): number => Date.parse(`${day}T00:00:00Z`) / 1000;

function color(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

const pulaAxis = (values: number[]) => values.map((value) => `P${Math.round(value)}`);
const pulaValue = (_u: uPlot, value: number | null) => (value === null ? M.unknown : formatPula(Math.round(value * 100), 'thebe'));
const percentValue = (_u: uPlot, value: number | null) => (value === null ? M.unknown : `${Math.round(value * 10) / 10}%`);

/** Revenue per period as bars (left axis, pula) and paid orders as a line (right axis). */
export function drawSales(target: HTMLElement, periods: readonly SalesPeriod[], by: ReportPeriod, width: number): uPlot {
  const brand = color('--c-brand', '#1e3a8a');
  const accent = color('--c-accent', '#b45309');
  const xs = periods.map((period) => daySeconds(period.start));
  const half = ((by === 'week' ? 7 : 1) * DAY_SECONDS) / 2;
  const first = xs[0] ?? 0;
  const last = xs[xs.length - 1] ?? first;
  const dateLabel = uPlot.fmtDate('{D} {MMM}');
  const opts: uPlot.Options = {
    width,
    height: CHART_HEIGHT,
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    scales: {
      x: { time: true, range: () => [first - half, last + half] },
      pula: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] },
      orders: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max * 1.1))] },
    },
    axes: [
      {
        // Ticks on period starts only (a day, or a week's Monday), as many as fit at ~70 px apart.
        splits: (u) => {
          const step = Math.max(1, Math.ceil(xs.length / Math.max(1, Math.floor(u.bbox.width / devicePixelRatio / 70))));
          return xs.filter((_x, index) => index % step === 0);
        },
        values: (_u, splits) => splits.map((split) => dateLabel(uPlot.tzDate(new Date(split * 1000), 'Etc/UTC'))),
      },
      { scale: 'pula', values: (_u, splits) => pulaAxis(splits), size: 64 },
      { scale: 'orders', side: 1, grid: { show: false }, values: (_u, splits) => splits.map((split) => (Number.isInteger(split) ? String(split) : '')) },
    ],
    series: [
      { label: by === 'week' ? M.byWeek : M.byDay, value: (_u, ts) => (ts === null ? M.unknown : dateLabel(uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'))) },
      { label: M.revenueSeries, scale: 'pula', stroke: brand, fill: `${brand}cc`, paths: uPlot.paths.bars?.({ size: [0.7, 48] }), points: { show: false }, value: pulaValue },
      { label: M.ordersSeries, scale: 'orders', stroke: accent, width: 2, points: { show: periods.length < 60 }, value: (_u, value) => (value === null ? M.unknown : String(value)) },
    ],
  };
  return new uPlot(opts, [xs, periods.map((period) => period.revenueThebe / 100), periods.map((period) => period.orders)], target);
}

/** Each day's share of the revenue after publishing as bars, and the running total as a line (both in %). */
export function drawTail(target: HTMLElement, tail: readonly SalesTailDay[], width: number): uPlot {
  const brand = color('--c-brand', '#1e3a8a');
  const success = color('--c-success', '#15803d');
  const opts: uPlot.Options = {
    width,
    height: CHART_HEIGHT,
    scales: { x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] }, percent: { range: [0, 100] } },
    axes: [
      { label: M.dayAxis, values: (_u, splits) => splits.map((split) => (Number.isInteger(split) ? String(split) : '')) },
      { scale: 'percent', values: (_u, splits) => splits.map((split) => `${split}%`) },
    ],
    series: [
      { label: M.dayAxis, value: (_u, day) => (day === null ? M.unknown : String(day)) },
      { label: M.daySeries, scale: 'percent', stroke: brand, fill: `${brand}cc`, paths: uPlot.paths.bars?.({ size: [0.8, 24] }), points: { show: false }, value: percentValue },
      { label: M.cumulativeSeries, scale: 'percent', stroke: success, width: 2, points: { show: false }, value: percentValue },
    ],
  };
  return new uPlot(
    opts,
    [tail.map((entry) => entry.day), tail.map((entry) => entry.share * 100), tail.map((entry) => entry.cumulativeShare * 100)],
    target,
  );
}

export type Chart = uPlot;
