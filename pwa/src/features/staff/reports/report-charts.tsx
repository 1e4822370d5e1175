/**
 * Sales over time and the sales tail after publishing, for all schools, one school or one class
 * (docs/reports.md, "The Reports tab"). uPlot comes in with the first chart: `loadCharts()` imports
 * ./staff-charts only when this component mounts, i.e. when the Reports tab is open. Each chart has
 * a text alternative: a summary under it (also the canvas's label) and, for sales over time, the
 * figures in a table one tap away.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReportPeriod, SalesPeriod, SalesReport, SalesTailDay } from '@contract/reports';
import { REPORT_SCREEN_MSG as M } from '@contract/staff-screen-messages';
import { Card, CardBody } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { Loaded } from '../../../components/ui/loaded';
import { Select } from '../../../components/ui/select';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api-client';
import { useSalesReport, type ReportRange } from '../api/reports';
import type * as ChartsCode from './staff-charts';
import { moneyText, percentText } from './report-figures';
import { dayText } from './report-range';

type ChartsModule = typeof ChartsCode;

let charts: Promise<ChartsModule> | null = null;
/** The chart code, fetched once per page on first use. */
export const loadCharts = (): Promise<ChartsModule> => {
  charts ??= import('./staff-charts').catch((err: unknown) => {
    charts = null;
    throw err;
  });
  return charts;
};

const periodText = (period: SalesPeriod, by: ReportPeriod): string => (by === 'week' ? M.weekOf(dayText(period.start)) : dayText(period.start));

export function salesSummary(report: SalesReport): string {
  const first = report.periods[0];
  const last = report.periods[report.periods.length - 1];
  if (!first || !last || report.totals.orders === 0) return M.noSales;
  const best = report.periods.reduce((top, period) => (period.revenueThebe > top.revenueThebe ? period : top), first);
  return `${M.salesSummary(moneyText(report.totals.revenueThebe), report.totals.orders, dayText(first.start), dayText(last.end))} ${M.salesBest(periodText(best, report.by), moneyText(best.revenueThebe))}`;
}

/** Cumulative share by the end of `day` (the last entry holds every later day). */
const shareBy = (tail: readonly SalesTailDay[], day: number): number | null => (tail.length === 0 ? null : (tail[Math.min(day, tail.length - 1)]?.cumulativeShare ?? null));

export function tailSummary(report: SalesReport): string {
  if (report.totals.orders === 0 || report.tail.every((entry) => entry.revenueThebe === 0)) return M.noTail;
  return M.tailSummary(percentText(shareBy(report.tail, 6)), percentText(shareBy(report.tail, 13)), percentText(shareBy(report.tail, 29)));
}

/** A canvas chart sized to its box, redrawn when the data or the width changes. */
function Chart({ label, draw }: { label: string; draw: (module: ChartsModule, target: HTMLElement, width: number) => { destroy(): void; setSize(size: { width: number; height: number }): void } }) {
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const target = box.current;
    if (!target) return undefined;
    let chart: ReturnType<typeof draw> | null = null;
    let observer: ResizeObserver | null = null;
    let stopped = false;
    loadCharts()
      .then((module) => {
        if (stopped) return;
        chart = draw(module, target, Math.max(280, target.clientWidth));
        if (typeof ResizeObserver === 'function') {
          observer = new ResizeObserver(() => chart?.setSize({ width: Math.max(280, target.clientWidth), height: module.CHART_HEIGHT }));
          observer.observe(target);
        }
      })
      .catch(() => setFailed(true));
    return () => {
      stopped = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [draw]);
  if (failed) return <p className="alert alert-danger">{M.chartsFailed}</p>;
  return <div ref={box} className="report-chart" role="img" aria-label={label} />;
}

export function ReportCharts({ range, school }: { range: ReportRange; school: { id: number; name: string; classes: { albumId: number; name: string }[] } | null }) {
  const [by, setBy] = useState<ReportPeriod>('day');
  const [albumId, setAlbumId] = useState<number | null>(null);
  const schoolId = school?.id ?? null;
  // A class of another school is never asked for.
  const shownAlbum = school?.classes.some((album) => album.albumId === albumId) ? albumId : null;
  const sales = useSalesReport({ ...range, schoolId, albumId: shownAlbum, by });
  return (
    <div className="stack report-charts">
      <Card>
        <CardBody className="stack">
          <div className="row between">
            <h3>{school ? M.salesTitleOf(school.name) : M.salesTitle}</h3>
            <div className="row" role="group" aria-label={M.periodLegend}>
              {(['day', 'week'] as const).map((period) => (
                <Button key={period} size="sm" variant={by === period ? 'secondary' : 'outline'} aria-pressed={by === period} onClick={() => setBy(period)}>
                  {period === 'day' ? M.byDay : M.byWeek}
                </Button>
              ))}
            </div>
          </div>
          {school && school.classes.length > 0 ? (
            <div className="field report-class-pick">
              <Label htmlFor="report-chart-class">{M.chartClass}</Label>
              <Select id="report-chart-class" value={shownAlbum === null ? '' : String(shownAlbum)} onChange={(event) => setAlbumId(event.target.value === '' ? null : Number(event.target.value))}>
                <option value="">{M.allClasses}</option>
                {school.classes.map((album) => (
                  <option key={album.albumId} value={String(album.albumId)}>
                    {album.name}
                  </option>
                ))}
              </Select>
            </div>
          ) : null}
          <Loaded query={sales} failed={errorMessage(sales.error, M.salesFailed)} loading={M.chartsLoading}>
            {(report) => <SalesOverTime report={report} />}
          </Loaded>
        </CardBody>
      </Card>
      <Card>
        <CardBody className="stack">
          <h3>{M.tailTitle}</h3>
          <p className="muted">{M.tailIntro}</p>
          <Loaded query={sales} failed={errorMessage(sales.error, M.salesFailed)} loading={M.chartsLoading}>
            {(report) => <SalesTail report={report} />}
          </Loaded>
        </CardBody>
      </Card>
    </div>
  );
}

function SalesOverTime({ report }: { report: SalesReport }) {
  const summary = salesSummary(report);
  const draw = useCallback((module: ChartsModule, target: HTMLElement, width: number) => module.drawSales(target, report.periods, report.by, width), [report]);
  if (report.totals.orders === 0) return <p className="muted">{summary}</p>;
  return (
    <figure className="report-figure">
      <Chart label={summary} draw={draw} />
      <figcaption>{summary}</figcaption>
      <details>
        <summary>{M.salesFigures}</summary>
        <div className="table-wrap">
          <table className="staff-table">
            <thead>
              <tr>
                <th scope="col">{M.columnPeriod}</th>
                <th scope="col">{M.ordersSeries}</th>
                <th scope="col">{M.columnRevenue}</th>
              </tr>
            </thead>
            <tbody>
              {report.periods.map((period) => (
                <tr key={period.start}>
                  <th scope="row">{periodText(period, report.by)}</th>
                  <td>{period.orders}</td>
                  <td>{moneyText(period.revenueThebe)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

function SalesTail({ report }: { report: SalesReport }) {
  const summary = tailSummary(report);
  const draw = useCallback((module: ChartsModule, target: HTMLElement, width: number) => module.drawTail(target, report.tail, width), [report]);
  if (summary === M.noTail) return <p className="muted">{summary}</p>;
  return (
    <figure className="report-figure">
      <Chart label={summary} draw={draw} />
      <figcaption>{summary}</figcaption>
    </figure>
  );
}
